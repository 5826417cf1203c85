import { Contract, type ContractRunner, type InterfaceAbi } from 'ethers';
import punkSeedAbi from '../../../contracts/abi/PunkSeed.json';
import theForgeAbi from '../../../contracts/abi/TheForge.json';
import type { ForgePath } from '../../../contracts/typedData';
import { chainUnavailable } from '../errors';

/**
 * Read access to the deployed contracts through ethers and the committed ABIs. Every call goes through the
 * chain's JSON-RPC endpoint; failures become `chainUnavailable` (503).
 */

/** The committed ABI of TheForge. */
export const THE_FORGE_ABI = theForgeAbi as InterfaceAbi;
/** The committed ABI of PunkSeed. */
export const PUNK_SEED_ABI = punkSeedAbi as InterfaceAbi;

/** A contract with per-user nonces (both contracts). */
export interface NonceSource {
  getNonce(user: string): Promise<bigint>;
}

/** A contract that records which signatures it consumed (both contracts). */
export interface UsedSignatureSource {
  /** True once a signature whose bytes hash to `signatureHash` was accepted (SignatureConsumed emitted). */
  isSignatureUsed(signatureHash: string): Promise<boolean>;
}

/** A contract that names the signer it accepts (both contracts). */
export interface SignerSource {
  /** The signer address the contract expects, checksummed. */
  signer(): Promise<string>;
}

/** A forge as stored by TheForge. */
export interface ForgeRecord {
  forger: string;
  path: ForgePath;
  claimed: boolean;
  /** Block timestamp of the start transaction, Unix seconds. */
  startedAt: number;
  zenCommitted: bigint;
}

/** Reads of TheForge the signer needs. */
export interface ForgeContractReader extends NonceSource, SignerSource, UsedSignatureSource {
  readonly address: string;
  /** The forge under `forgeId`, or null when none was started. */
  getForge(forgeId: string): Promise<ForgeRecord | null>;
}

/** Reads of PunkSeed the signer needs. */
export interface PunkSeedContractReader extends NonceSource, SignerSource, UsedSignatureSource {
  readonly address: string;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

async function read<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw chainUnavailable(operation, error);
  }
}

function guardReads(contract: Contract, name: string): NonceSource & SignerSource & UsedSignatureSource {
  return {
    getNonce: (user) =>
      read(`${name}.getNonce`, async () => BigInt(await contract.getFunction('getNonce')(user))),
    signer: () => read(`${name}.signer`, async () => String(await contract.getFunction('signer')())),
    isSignatureUsed: (signatureHash) =>
      read(`${name}.isSignatureUsed`, async () =>
        Boolean(await contract.getFunction('isSignatureUsed')(signatureHash)),
      ),
  };
}

/** Connects to TheForge at `address` through `runner` (an ethers Provider). */
export function connectForgeContract(address: string, runner: ContractRunner): ForgeContractReader {
  const contract = new Contract(address, THE_FORGE_ABI, runner);
  return {
    address,
    ...guardReads(contract, 'TheForge'),
    getForge: (forgeId) =>
      read('TheForge.getForge', async () => {
        const forge = (await contract.getFunction('getForge')(forgeId)) as {
          forger: string;
          path: bigint;
          claimed: boolean;
          startedAt: bigint;
          zenCommitted: bigint;
        };
        if (forge.forger === ZERO_ADDRESS) return null;
        return {
          forger: forge.forger,
          path: Number(forge.path) as ForgePath,
          claimed: forge.claimed,
          startedAt: Number(forge.startedAt),
          zenCommitted: forge.zenCommitted,
        };
      }),
  };
}

/** Connects to PunkSeed at `address` through `runner` (an ethers Provider). */
export function connectPunkSeedContract(address: string, runner: ContractRunner): PunkSeedContractReader {
  return { address, ...guardReads(new Contract(address, PUNK_SEED_ABI, runner), 'PunkSeed') };
}
