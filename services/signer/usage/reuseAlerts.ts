import type { Logger } from 'pino';
import { signatureReuseAlerts } from '../metrics';
import type { SignatureKind } from '../../../models/IssuedSignature';
import type { AuditRecorder } from '../../../models/AuditEvent';

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
 * Raises a reuse alert: increments `signer_signature_reuse_alerts_total`, logs a warning carrying
 * `alert: "SignatureReuse"` and, with the platform's audit log, records a `signer.reuse_alert` event. Call it when a
 * request would reuse a consumed nonce (the issuers do) and when a client reports the contract's
 * SignatureAlreadyUsed revert.
 */
export function reportReuseAttempt(attempt: ReuseAttempt, logger: Logger, audit?: AuditRecorder): void {
  signatureReuseAlerts.inc({ kind: attempt.kind, reason: attempt.reason });
  audit?.record({
    at: new Date(),
    actor: 'system',
    kind: 'signer.reuse_alert',
    target: `address:${attempt.requester.toLowerCase()}`,
    outcome: 'alert',
    ip: null,
    request_id: null,
    details: {
      alert: 'SignatureReuse',
      reason: attempt.reason,
      type: attempt.kind,
      chain_id: attempt.chainId,
      contract: attempt.contract,
      nonce: attempt.nonce?.toString() ?? null,
      sig_hash: attempt.signatureHash ?? null,
    },
  });
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
