import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as edr from '@nomicfoundation/edr';
import { getBytes, Wallet } from 'ethers';
import { answerJsonRpc, type JsonRpcResponse, type NormalisedRequest } from './jsonRpcEnvelope';

/**
 * An in-process EVM chain with a JSON-RPC endpoint over HTTP, for tests and local development (dev dependency
 * `@nomicfoundation/edr`, Hardhat's Rust EVM). It runs EDR's OP-stack chain type at its latest hardfork, the
 * family Base belongs to, with a configurable chain id, so code under test talks to it through ethers'
 * JsonRpcProvider exactly as it talks to Base. Supports the Hardhat test methods (`evm_setNextBlockTimestamp`,
 * `evm_mine`, `evm_snapshot`, `evm_setAutomine`, ...). The endpoint speaks JSON-RPC 2.0 as clients send it
 * (`params` omitted, batches, notifications; see jsonRpcEnvelope.ts) and answers CORS preflights, so viem and
 * wagmi front ends can use it.
 */

/** Options of `startDevChain`. */
export interface DevChainOptions {
  /** EIP-155 chain id; default 84532 (Base Sepolia). */
  chainId?: number;
  /** Accounts funded at genesis (private keys); default none. */
  fundedKeys?: string[];
  /** Balance of each funded account in wei; default 1000 ether. */
  balanceWei?: bigint;
  /** Genesis block time in Unix seconds; default the current time. */
  genesisTime?: number;
}

/** A running dev chain. */
export interface DevChain {
  /** JSON-RPC endpoint, `http://127.0.0.1:<port>`. */
  url: string;
  chainId: number;
  /** Stops the HTTP endpoint. */
  close(): Promise<void>;
}

interface JsonRpcReply {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * EDR reports a revert as `data: { reason, data: "0x..." }`; op-geth (Base) as `code: 3, data: "0x..."`. Rewrite to
 * the node's shape so ethers decodes custom errors exactly as it would against Base.
 */
function asNodeReply(reply: JsonRpcReply): JsonRpcReply {
  const data = reply.error?.data as { data?: unknown } | undefined;
  if (!reply.error || typeof data?.data !== 'string') return reply;
  return { error: { code: 3, message: reply.error.message, data: data.data } };
}

/**
 * EDR wants one context per process (a second one prints a tracing warning). The context is kept on the native
 * EdrContext class itself: module-level state is per module registry, and test runners that load each test file
 * in a fresh registry still share the native addon, so this is the one place that is truly per process.
 */
const CONTEXT_SLOT = '__forgePlatformDevChainContext';

function edrContext(): Promise<edr.EdrContext> {
  const holder = edr.EdrContext as unknown as Record<string, Promise<edr.EdrContext> | undefined>;
  holder[CONTEXT_SLOT] ??= (async () => {
    const created = new edr.EdrContext();
    await created.registerProviderFactory(edr.OP_CHAIN_TYPE, edr.opProviderFactory());
    return created;
  })();
  return holder[CONTEXT_SLOT];
}

async function createProvider(options: DevChainOptions, chainId: bigint): Promise<edr.Provider> {
  const hardfork = edr.opLatestHardfork();
  const balance = options.balanceWei ?? 10n ** 21n;
  const funded = (options.fundedKeys ?? []).map((key) => ({
    address: getBytes(new Wallet(key).address),
    balance,
  }));
  const genesisTime = options.genesisTime ?? Math.floor(Date.now() / 1000);
  return (await edrContext()).createProvider(
    edr.OP_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: false,
      allowUnlimitedContractSize: false,
      // Reverted calls and transactions answer with a JSON-RPC error, as a real node does.
      bailOnCallFailure: true,
      bailOnTransactionFailure: true,
      chainId,
      coinbase: new Uint8Array(20),
      defaultTransactionGasLimit: 30_000_000n,
      genesisState: [...edr.opGenesisState(hardfork), ...funded],
      hardfork: edr.opHardforkToString(hardfork),
      initialBaseFeePerGas: 1_000_000n,
      minGasPrice: 0n,
      mining: { autoMine: true, memPool: { order: edr.MineOrdering.Priority } },
      network: { genesisBlockGasLimit: 60_000_000n, genesisBlockTime: BigInt(genesisTime) },
      networkId: chainId,
      observability: {},
      ownedAccounts: [],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => undefined },
    { subscriptionCallback: () => undefined },
    new edr.ContractDecoder(),
  );
}

async function answer(provider: edr.Provider, request: NormalisedRequest): Promise<JsonRpcResponse> {
  const response = await provider.handleRequest(JSON.stringify(request));
  const reply = (
    typeof response.data === 'string' ? JSON.parse(response.data) : response.data
  ) as JsonRpcReply;
  // EDR leaves the envelope to the caller; echo the request id as JSON-RPC 2.0 requires.
  return { jsonrpc: '2.0', id: request.id, ...asNodeReply(reply) };
}

/** Browser front ends (viem, wagmi) call the dev chain from another origin, as they call a public node. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
};

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts a chain and its JSON-RPC endpoint on a random loopback port. */
export async function startDevChain(options: DevChainOptions = {}): Promise<DevChain> {
  const chainId = options.chainId ?? 84532;
  const provider = await createProvider(options, BigInt(chainId));
  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    readBody(req)
      .then((body) => answerJsonRpc(body, (request) => answer(provider, request)))
      .then(
        (reply) => {
          if (reply === undefined) res.writeHead(204, CORS_HEADERS).end();
          else
            res
              .writeHead(200, { ...CORS_HEADERS, 'content-type': 'application/json' })
              .end(JSON.stringify(reply));
        },
        () => res.destroy(),
      );
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    chainId,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
