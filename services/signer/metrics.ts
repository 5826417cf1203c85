import client from 'prom-client';
import { registry } from '../../platform/metrics';

/** Signatures issued, by kind (forge-start, forge-claim, punk-seed-mint) and chain id. */
export const signaturesIssued = new client.Counter({
  name: 'signer_signatures_issued_total',
  help: 'Signatures issued, by kind and chain id',
  labelNames: ['kind', 'chain_id'] as const,
  registers: [registry],
});

/** Time to issue one signature (nonce read, prediction, signing), by kind. */
export const signatureIssueLatency = new client.Histogram({
  name: 'signer_signature_issue_seconds',
  help: 'Time to issue one signature, by kind',
  labelNames: ['kind'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

/**
 * Reuse alerts, by kind and reason: `nonce_consumed` (a request would have been signed with a nonce already used
 * on chain) or `signature_already_used` (a client reported the contract's SignatureAlreadyUsed). Alert on any
 * increase: each one means a stale nonce cache or a replay attempt.
 */
export const signatureReuseAlerts = new client.Counter({
  name: 'signer_signature_reuse_alerts_total',
  help: 'Attempts to reuse a consumed nonce or signature, by kind and reason',
  labelNames: ['kind', 'reason'] as const,
  registers: [registry],
});

/**
 * Signatures the contracts consumed that this signer has no record of. Alert on any increase: either records were
 * lost, or the signing key is being used elsewhere (leaked key).
 */
export const unknownSignaturesConsumed = new client.Counter({
  name: 'signer_unknown_signatures_consumed_total',
  help: 'SignatureConsumed events for signatures the signer never stored, by contract',
  labelNames: ['contract'] as const,
  registers: [registry],
});
