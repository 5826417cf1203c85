import type { Logger } from 'pino';
import { signatureReuseAlerts } from '../metrics';
import type { SignatureKind } from '../../../models/IssuedSignature';

/** Why a reuse alert fired. */
export type ReuseReason = 'nonce_consumed' | 'signature_already_used';

/** A detected attempt to reuse a consumed nonce or signature. */
export interface ReuseAttempt {
  kind: SignatureKind;
  reason: ReuseReason;
  chainId: number;
  contract: string;
  requester: string;
  nonce?: bigint;
  signatureHash?: string;
}

/**
 * Raises a reuse alert: increments `signer_signature_reuse_alerts_total` and logs a warning carrying
 * `alert: "SignatureReuse"`. Call it when a request would reuse a consumed nonce (the issuers do) and when a
 * client reports the contract's SignatureAlreadyUsed revert.
 */
export function reportReuseAttempt(attempt: ReuseAttempt, logger: Logger): void {
  signatureReuseAlerts.inc({ kind: attempt.kind, reason: attempt.reason });
  logger.warn(
    { alert: 'SignatureReuse', ...attempt, nonce: attempt.nonce?.toString() },
    `signature reuse attempt (${attempt.reason})`,
  );
}

/** One signature nonce of a user on a contract of a chain. */
export interface ContractNonce {
  chainId: number;
  contract: string;
  user: string;
  nonce: bigint;
}

/** Tells whether a nonce was already consumed on chain (from stored signatures marked used, or watched events). */
export interface ConsumedNonceLookup {
  isConsumed(query: ContractNonce): Promise<boolean>;
}
