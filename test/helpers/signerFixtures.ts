import { Wallet } from 'ethers';
import type { ChainSigner, SignerKeyProvider } from '../../services/signer/keys/signerKeys';
import { WalletChainSigner } from '../../services/signer/keys/signerKeys';
import { testKey } from './evm';

/** A key provider over fixed wallets per chain id (tests only). */
export class StaticKeyProvider implements SignerKeyProvider {
  private readonly signers = new Map<number, ChainSigner>();

  constructor(keys: Record<number, string>) {
    for (const [chainId, key] of Object.entries(keys)) {
      this.signers.set(Number(chainId), new WalletChainSigner(new Wallet(key)));
    }
  }

  async getSigner(chainId: number): Promise<ChainSigner> {
    const signer = this.signers.get(chainId);
    if (!signer) throw new Error(`no test key for chain ${chainId}`);
    return signer;
  }

  async rotate(): Promise<void> {}
}

/** Distinct deterministic signer keys for mainnet and testnet. */
export const SIGNER_KEYS = { 8453: testKey('signer 8453'), 84532: testKey('signer 84532') } as const;

/** Address of the test signer key of `chainId`. */
export function signerAddress(chainId: 8453 | 84532): string {
  return new Wallet(SIGNER_KEYS[chainId]).address;
}

/** A StaticKeyProvider with the test keys of both chains, overridable per chain. */
export function buildKeyProvider(overrides: Partial<Record<number, string>> = {}): StaticKeyProvider {
  return new StaticKeyProvider({ ...SIGNER_KEYS, ...overrides } as Record<number, string>);
}

/** Soft-currency balances by address in memory, with holds taken from them (for policy and command tests). */
export function memoryBalances(balances: Record<string, bigint>) {
  const holds = new Map<string, { address: string; amount: bigint }>();
  return {
    holds,
    getBalance: async (address: string) => balances[address] ?? 0n,
    hold: async (address: string, amount: bigint, holdId: string) => {
      if ((balances[address] ?? 0n) < amount) return false;
      balances[address] = (balances[address] ?? 0n) - amount;
      holds.set(holdId, { address, amount });
      return true;
    },
    release: async (address: string, holdId: string) => {
      const hold = holds.get(holdId);
      if (hold) balances[address] = (balances[address] ?? 0n) + hold.amount;
      holds.delete(holdId);
    },
  };
}
