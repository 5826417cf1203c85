import type { Provider } from 'ethers';
import type { Types } from 'mongoose';
import type { Clock } from '../../../platform/clock';
import type { Accounts } from '../accounts';
import type { EnsResolver } from '../ensResolver';
import type { NonceStore } from './nonceStore';
import type { ReplayMonitor } from './replayMonitor';
import type { IssuedSession, Sessions } from '../sessions';
import { newNonce } from '../tokens';
import { siweError, walletSignInError } from './errors';
import { verifyWalletProof, type WalletProof } from './walletVerifier';

export interface WalletSignInOptions {
  enabled: boolean;
  domain: string;
  chainId?: number;
  nonceTtlSeconds: number;
  sessionTtlSeconds: number;
}

export interface WalletSignInDependencies {
  nonces: NonceStore;
  replays: ReplayMonitor;
  accounts: Accounts;
  sessions: Sessions;
  ens: EnsResolver;
  clock: Clock;
  /** For EIP-1271 smart-contract wallets. */
  provider?: Provider;
}

/** A wallet session: the issued session and the address that signed. */
export interface WalletSession extends IssuedSession {
  address: string;
}

/**
 * SIWE (EIP-4361) sign-in, SPEC 3.1: a nonce is issued, then consumed by the first valid verify; a second verify of
 * it is a replay (401, counted). Everything is checked before the nonce is consumed, and the consumption is atomic,
 * so concurrent verifies of one nonce yield exactly one session.
 */
export class WalletSignIn {
  constructor(
    private readonly options: WalletSignInOptions,
    private readonly deps: WalletSignInDependencies,
  ) {}

  async issueNonce(): Promise<string> {
    this.ensureEnabled();
    const nonce = newNonce();
    await this.deps.nonces.issue(nonce, this.options.nonceTtlSeconds);
    return nonce;
  }

  /** Verifies the proof and opens a session; with `linkTo` the wallet is linked to that signed-in user instead. */
  async verify(proof: WalletProof, linkTo?: Types.ObjectId): Promise<WalletSession> {
    this.ensureEnabled();
    const { address } = await verifyWalletProof(proof, {
      domain: this.options.domain,
      chainId: this.options.chainId,
      now: new Date(this.deps.clock.now()),
      provider: this.deps.provider,
    });
    const consumption = await this.deps.nonces.consume(proof.nonce);
    if (consumption === 'replayed') {
      await this.deps.replays.record({ address, nonce: proof.nonce });
      throw walletSignInError('SIWE_NONCE_REPLAYED', 'This nonce was already used: request a new one');
    }
    if (consumption === 'unknown') {
      throw walletSignInError('SIWE_NONCE_UNKNOWN', 'Unknown or expired nonce: request a new one');
    }
    // null (the wallet has no name now) clears a recorded name; undefined (lookup failed) leaves it.
    const ensName = await this.deps.ens.nameOf(address);
    const userId = await this.deps.accounts.proveIdentity(
      'wallet',
      address.toLowerCase(),
      { ensName },
      linkTo,
    );
    const session = await this.deps.sessions.issue(userId, 'wallet', this.options.sessionTtlSeconds, address);
    return { ...session, address };
  }

  /** Throws 501 SIWE_DISABLED while wallet sign-in is off (routes check it before validating the body). */
  ensureEnabled(): void {
    if (!this.options.enabled) {
      throw siweError('SIWE_DISABLED', 'Wallet sign-in is disabled on this server (SIWE_ENABLED=0)');
    }
  }
}
