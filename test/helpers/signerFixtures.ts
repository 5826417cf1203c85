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
