import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { JsonRpcProvider } from 'ethers';
import { startMongoEngine } from '../../embedded/mongo';
import { systemClock } from '../../platform/clock';
import { silentLogger } from '../../platform/logger';
import { connectMongo } from '../../platform/stores/mongo';
import { ForgeFunds } from '../../services/economy/forgeFunds';
import { SignatureRequestPolicy } from '../../services/signer/policy/requestPolicy';
import { createSignatureCommands } from '../../services/signer/issuing/signatureCommands';
import { MongoSignatureStore } from '../../services/signer/issuing/signatureStore';
import { createSignerCore } from '../../services/signer/issuing/signerCore';
import type { SignerKeyProvider } from '../../services/signer/keys/signerKeys';

/** The deployment and chain the bench stacks sign for. */
export interface BenchChain {
  chainId: number;
  url: string;
  provider: JsonRpcProvider;
  forgeAddress: string;
  seedAddress: string;
}

/**
 * The product's command path below HTTP: core, policy (in-memory limits, the soft-currency ledger) and the MongoDB
 * signature store (also the consumed-nonce lookup), on an embedded MongoDB engine in a temp dir.
 */
export async function commandStack(chain: BenchChain, keys: SignerKeyProvider) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-signer-'));
  const engine = await startMongoEngine({ dir });
  const connection = await connectMongo(engine.uri, 'bench', silentLogger);
  const [store, ledger] = await Promise.all([
    MongoSignatureStore.open(connection),
    ForgeFunds.open(connection, systemClock, silentLogger),
  ]);
  const core = createSignerCore({ ...chain, keys, consumedNonces: store });
  // The bench reuses no address, so the request limit never binds; the cooldown is off for the same reason.
  const policy = new SignatureRequestPolicy({ balances: ledger, forgeCooldownMs: 0 });
  const commands = createSignatureCommands({ core, policy, store });
  return {
    core,
    commands,
    ledger,
    close: async () => {
      await connection.close();
      await engine.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A free loopback TCP port. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The production entry point (`main.ts`, api role, embedded stores) in its own process, configured through the
 * environment; its request logs (info level) go to /dev/null, so their cost is included. The bench process keeps
 * the chain and the HTTP client, so the figure is the server process's.
 */
export async function httpStack(chain: BenchChain, signerKey: string, serviceToken: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-signer-http-'));
  await fs.writeFile(path.join(dir, `signer-private-key-${chain.chainId}`), signerKey);
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      ROLES: 'api',
      LOG_LEVEL: 'info',
      GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
      BRAIN_SERVICE_TOKEN: serviceToken,
      SIGNER_CHAIN_ID: String(chain.chainId),
      SIGNER_RPC_URL: chain.url,
      SIGNER_FORGE_ADDRESS: chain.forgeAddress,
      SIGNER_SEED_ADDRESS: chain.seedAddress,
      SIGNER_SECRETS_DIR: dir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`the platform exited with ${server.exitCode}`);
    const ready = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (attempt > 300) throw new Error('the platform did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    close: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
