import { JsonRpcProvider, Network, Wallet, id } from 'ethers';
import { deployReferenceContracts, type ReferenceDeployment } from '../../contracts/deploy';
import { startDevChain } from '../../contracts/devChain';

/**
 * Test harness: an in-process EDR chain behind a JSON-RPC endpoint on a random port, an ethers provider talking
 * to it over HTTP, funded wallets, and deployments of TheForge and PunkSeed built from the Solidity sources.
 */

/** A running test chain. */
export interface TestChain {
  url: string;
  chainId: number;
  provider: JsonRpcProvider;
  /** Funded wallets connected to `provider`; wallets[0] deploys and owns the contracts. */
  wallets: Wallet[];
  /** Timestamp of the latest block, in Unix seconds. */
  latestTimestamp(): Promise<number>;
  /** The next mined block gets exactly this timestamp. */
  setNextBlockTimestamp(timestamp: number): Promise<void>;
  /** Mines an empty block (at `timestamp` when given). */
  mine(timestamp?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of `startTestChain`. */
export interface TestChainOptions {
  /** Default 84532. */
  chainId?: number;
  /** Funded wallets to create; default 4. */
  accounts?: number;
}

/** Deterministic test keys, distinct per label so tests never share accounts by accident. */
export function testKey(label: string): string {
  return id(`forge-platform test key ${label}`);
}

/** Starts a chain with funded wallets; call `close()` in afterAll. */
export async function startTestChain(options: TestChainOptions = {}): Promise<TestChain> {
  const chainId = options.chainId ?? 84532;
  const keys = Array.from({ length: options.accounts ?? 4 }, (_, index) => testKey(`account ${index}`));
  const chain = await startDevChain({ chainId, fundedKeys: keys });
  const provider = new JsonRpcProvider(chain.url, Network.from(chainId), {
    staticNetwork: true,
    polling: true,
    // ethers caches identical calls for 250 ms by default, which hides the account nonce of a tx mined just before.
    cacheTimeout: -1,
  });
  provider.pollingInterval = 50;
  const latestTimestamp = async (): Promise<number> => {
    const block = await provider.getBlock('latest');
    if (!block) throw new Error('chain has no latest block');
    return block.timestamp;
  };
  return {
    url: chain.url,
    chainId,
    provider,
    wallets: keys.map((key) => new Wallet(key, provider)),
    latestTimestamp,
    setNextBlockTimestamp: async (timestamp) => {
      await provider.send('evm_setNextBlockTimestamp', [timestamp]);
    },
    mine: async (timestamp) => {
      if (timestamp !== undefined) await provider.send('evm_setNextBlockTimestamp', [timestamp]);
      await provider.send('evm_mine', []);
    },
    close: async () => {
      provider.destroy();
      await chain.close();
    },
  };
}

/** Both contracts deployed on a test chain. */
export type Deployment = ReferenceDeployment;

/** Deploys TheForge and PunkSeed with `signerAddress` as their signer, owned by `deployer` (default wallets[0]). */
export function deployContracts(
  chain: TestChain,
  signerAddress: string,
  deployer: Wallet = chain.wallets[0],
): Promise<Deployment> {
  return deployReferenceContracts(deployer, signerAddress);
}
