import { parseArgs } from 'node:util';
import { getAddress, hexlify, id, JsonRpcProvider, Network, randomBytes, Wallet } from 'ethers';
import { deployReferenceContracts } from '../contracts/deploy';
import { startDevChain } from '../contracts/devChain';
import { connectForgeContract, connectPunkSeedContract } from '../services/signer/chain/chainContracts';
import { ForgeIdPredictor } from '../services/signer/chain/forgeIdPredictor';
import { ForgeSignatureIssuer } from '../services/signer/issuing/forgeSignatures';
import { MintSignatureIssuer } from '../services/signer/issuing/mintSignatures';
import { NonceReader } from '../services/signer/chain/nonceReader';
import { envSecretSource, SecretKeyProvider } from '../services/signer/keys/signerKeys';
import { commandStack, httpStack } from './signer/stacks';

/**
 * Signer throughput and latency: signatures issued per second by one process, and p50/p95/p99 per signature,
 * against an in-process EDR chain over HTTP JSON-RPC. "warm": each address's nonce is cached (the signer's steady
 * state under the 10-per-minute-per-address limit); "cold": every signature reads getNonce over RPC first.
 * Target (issue 6): at least 500 signatures/s per process with the nonce cache warm.
 *
 * Three layers: the issuers alone; the commands the routes call (validation, request limit, balance, the
 * consumed-nonce lookup and the insert into MongoDB, on the embedded engine); and HTTP through a whole platform
 * (auth, routes, request logs). Over HTTP every request reads its nonce from the chain: issuing a signature drops
 * the address's cached nonce, so a warm cache only serves concurrent requests for one address.
 *
 *   npx tsx bench/signer.ts [--rounds 8] [--batch 250] [--concurrency 32]
 *
 * Throughput is measured with `concurrency` requests in flight (their latencies include queueing); the
 * "sequential" line issues one at a time, which is the latency a single request sees.
 */

const CHAIN_ID = 84532;
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    batch: { type: 'string', default: '250' },
    concurrency: { type: 'string', default: '32' },
  },
});
const rounds = Number(values.rounds);
const batch = Number(values.batch);
const concurrency = Number(values.concurrency);

function randomAddresses(count: number): string[] {
  return Array.from({ length: count }, () => getAddress(hexlify(randomBytes(20))));
}

/** Runs `task` over `items` with `inFlight` at a time; returns per-item latencies (ms) and wall time (ms). */
async function timed<T>(items: T[], task: (item: T) => Promise<unknown>, inFlight = concurrency) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      const t0 = performance.now();
      await task(item);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { latencies, wallMs: performance.now() - started };
}

/** Nearest-rank percentile (index ceil(p% of n) - 1): one rank lower than bench/support/stats.ts's at times. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function report(label: string, latencies: number[], wallMs: number): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const rate = (latencies.length / wallMs) * 1000;
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `${label.padEnd(28)} ${String(latencies.length).padStart(6)} sigs  ${rate.toFixed(0).padStart(6)} sigs/s  ` +
      `p50 ${fmt(percentile(sorted, 50))}  p95 ${fmt(percentile(sorted, 95))}  p99 ${fmt(percentile(sorted, 99))}`,
  );
}

async function main(): Promise<void> {
  const signerKey = id('bench signer key');
  const deployerKey = id('bench deployer key');
  const chain = await startDevChain({ chainId: CHAIN_ID, fundedKeys: [deployerKey] });
  const provider = new JsonRpcProvider(chain.url, Network.from(CHAIN_ID), {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  const deployer = new Wallet(deployerKey, provider);
  const deployment = await deployReferenceContracts(deployer, new Wallet(signerKey).address);

  const keys = new SecretKeyProvider({
    source: envSecretSource({ [`SIGNER_PRIVATE_KEY_${CHAIN_ID}`]: signerKey }),
  });
  let nonceRpcReads = 0;
  const counted = <T extends { getNonce(user: string): Promise<bigint> }>(reader: T): T => ({
    ...reader,
    getNonce: (user: string) => {
      nonceRpcReads += 1;
      return reader.getNonce(user);
    },
  });
  const forge = counted(connectForgeContract(deployment.forgeAddress, provider));
  const seed = counted(connectPunkSeedContract(deployment.seedAddress, provider));
  const forgeNonces = new NonceReader({ source: forge });
  const seedNonces = new NonceReader({ source: seed });
  const predictor = new ForgeIdPredictor({ blocks: provider });
  const forgeIssuer = new ForgeSignatureIssuer({
    chainId: CHAIN_ID,
    keys,
    nonces: forgeNonces,
    forge,
    predictor,
  });
  const mintIssuer = new MintSignatureIssuer({ chainId: CHAIN_ID, keys, nonces: seedNonces, seed });

  console.log(
    `signer bench: ${rounds} rounds x ${batch} signatures, concurrency ${concurrency}, chain ${CHAIN_ID}`,
  );
  await forgeIssuer.issueStart({ forger: randomAddresses(1)[0], path: 0, zenCommitted: 1n });

  const runs = {
    'forge start (warm)': {
      nonces: forgeNonces,
      issue: (a: string) => forgeIssuer.issueStart({ forger: a, path: 0, zenCommitted: 1n }),
    },
    'seed mint (warm)': { nonces: seedNonces, issue: (a: string) => mintIssuer.issueMint({ address: a }) },
  };
  for (const [label, run] of Object.entries(runs)) {
    const latencies: number[] = [];
    let wallMs = 0;
    let timedRpcReads = 0;
    for (let round = 0; round < rounds; round += 1) {
      const batchAddresses = randomAddresses(batch);
      // Untimed: fill the nonce cache (well inside its 4 s TTL) the way recent requests would have.
      await Promise.all(batchAddresses.map((address) => run.nonces.read(address)));
      const readsBefore = nonceRpcReads;
      const result = await timed(batchAddresses, run.issue);
      timedRpcReads += nonceRpcReads - readsBefore;
      latencies.push(...result.latencies);
      wallMs += result.wallMs;
    }
    report(label, latencies, wallMs);
    if (timedRpcReads > 0)
      console.log(`  (${timedRpcReads} nonce reads expired from the cache and went to RPC)`);
  }
  const sequential = randomAddresses(batch);
  await Promise.all(sequential.map((address) => forgeNonces.read(address)));
  const single = await timed(
    sequential,
    (a) => forgeIssuer.issueStart({ forger: a, path: 0, zenCommitted: 1n }),
    1,
  );
  report('forge start (sequential)', single.latencies, single.wallMs);
  const cold = await timed(randomAddresses(batch), (a) =>
    forgeIssuer.issueStart({ forger: a, path: 0, zenCommitted: 1n }),
  );
  report('forge start (cold RPC)', cold.latencies, cold.wallMs);

  const benchChain = { chainId: CHAIN_ID, url: chain.url, provider, ...deployment };
  const stack = await commandStack(benchChain, keys);
  const caller = { requestedBy: 'service' };
  const commandRuns = {
    'start via commands (warm)': {
      prepare: async (addresses: string[]) => {
        for (const [i, address] of addresses.entries()) {
          await stack.ledger.credit({
            idempotencyKey: `bench-${address}-${i}`,
            address,
            amount: 10n,
            reason: 'bench',
          });
        }
        await Promise.all(addresses.map((address) => stack.core.forgeNonces.read(address)));
      },
      issue: (a: string) => stack.commands.startForge({ forger: a, path: 1, zenCommitted: 10n }, caller),
    },
    'mint via commands (warm)': {
      prepare: async (addresses: string[]) => {
        await Promise.all(addresses.map((address) => stack.core.seedNonces.read(address)));
      },
      issue: (a: string) => stack.commands.mintPunkSeed({ address: a }, caller),
    },
  };
  for (const [label, run] of Object.entries(commandRuns)) {
    const latencies: number[] = [];
    let wallMs = 0;
    for (let round = 0; round < rounds; round += 1) {
      const batchAddresses = randomAddresses(batch);
      await run.prepare(batchAddresses);
      const result = await timed(batchAddresses, run.issue);
      latencies.push(...result.latencies);
      wallMs += result.wallMs;
    }
    report(label, latencies, wallMs);
  }
  await stack.close();

  const serviceToken = 'bench-service-token-0123456789';
  const http = await httpStack(benchChain, signerKey, serviceToken);
  const post = async (address: string) => {
    const res = await fetch(`${http.url}/api/punk-seed/mint`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serviceToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address }),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  await timed(randomAddresses(100), post);
  const httpLatencies: number[] = [];
  let httpWallMs = 0;
  for (let round = 0; round < rounds; round += 1) {
    const result = await timed(randomAddresses(batch), post);
    httpLatencies.push(...result.latencies);
    httpWallMs += result.wallMs;
  }
  report('mint over HTTP', httpLatencies, httpWallMs);
  const oneByOne = await timed(randomAddresses(batch), post, 1);
  report('mint over HTTP (sequential)', oneByOne.latencies, oneByOne.wallMs);
  await http.close();

  provider.destroy();
  await chain.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
