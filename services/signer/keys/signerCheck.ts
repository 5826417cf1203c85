import type { SignerSource } from '../chain/chainContracts';
import { chainUnavailable, SignerConfigError, SignerMismatchError } from '../errors';
import type { SignerKeyProvider } from './signerKeys';

/** One deployed contract whose expected signer is checked. */
export interface SignerCheckTarget {
  /** Name for messages, e.g. "TheForge". */
  name: string;
  chainId: number;
  contract: SignerSource;
}

/**
 * Start-up check: the key for `target.chainId` must be the signer `target.contract` expects. Returns the signer
 * address; throws SignerMismatchError (stop the service) on a mismatch, and whatever the key provider or the
 * chain read throws when either is unavailable.
 */
export async function assertSignerMatches(
  target: SignerCheckTarget,
  keys: SignerKeyProvider,
): Promise<string> {
  const [expected, signer] = await Promise.all([target.contract.signer(), keys.getSigner(target.chainId)]);
  if (expected.toLowerCase() !== signer.address.toLowerCase()) {
    throw new SignerMismatchError(target.name, target.chainId, expected, signer.address);
  }
  return signer.address;
}

/**
 * Checks every target, then that no two chain ids share a key (SPEC 5: separate keys for test and production
 * networks). Returns the signer address per chain id.
 */
export async function verifySignerSetup(
  targets: readonly SignerCheckTarget[],
  keys: SignerKeyProvider,
): Promise<Map<number, string>> {
  const byChain = new Map<number, string>();
  for (const target of targets) byChain.set(target.chainId, await assertSignerMatches(target, keys));
  const owners = new Map<string, number>();
  for (const [chainId, address] of byChain) {
    const other = owners.get(address.toLowerCase());
    if (other !== undefined) {
      throw new SignerConfigError(
        `chains ${other} and ${chainId} share signer ${address}; use one key per chain id`,
      );
    }
    owners.set(address.toLowerCase(), chainId);
  }
  return byChain;
}

/** Where the connected network's chain id comes from (an ethers Provider fits). */
export interface NetworkSource {
  getNetwork(): Promise<{ chainId: bigint }>;
}

/**
 * Start-up check that the RPC endpoint serves the configured chain (SPEC 7: chain ID mismatch): signatures carry
 * the configured chain id, so an endpoint of another network would make every one of them unusable.
 */
export async function assertChainId(network: NetworkSource, chainId: number): Promise<void> {
  const actual = Number((await network.getNetwork()).chainId);
  if (actual !== chainId) {
    throw new SignerConfigError(
      `RPC endpoint serves chain ${actual}, but the signer is configured for ${chainId}`,
    );
  }
}

/**
 * A NetworkSource that asks the endpoint itself (`eth_chainId`). An ethers provider built with a static network
 * answers getNetwork() from that configuration without asking, which would hide an endpoint of another chain.
 */
export function rpcChainId(rpc: {
  send(method: string, params: unknown[]): Promise<unknown>;
}): NetworkSource {
  return {
    getNetwork: async () => {
      try {
        return { chainId: BigInt(String(await rpc.send('eth_chainId', []))) };
      } catch (error) {
        throw chainUnavailable('eth_chainId', error);
      }
    },
  };
}
