import pino, { type Logger } from 'pino';
import { isSupportedChainId } from '../../../contracts/typedData';
import { systemClock, type Clock } from '../../../platform/clock';
import { nonceStale, SignerConfigError } from '../errors';
import { signatureIssueLatency, signaturesIssued } from '../metrics';
import type { NonceReader } from '../chain/nonceReader';
import { reportReuseAttempt, type ConsumedNonceLookup } from '../usage/reuseAlerts';
import { signatureHashOf, type SignatureKind, type SignatureRecord } from '../../../models/IssuedSignature';
import type { SignerKeyProvider } from '../keys/signerKeys';
import type { AuditRecorder } from '../../../models/AuditEvent';

/** Dependencies every issuer shares. */
export interface IssuerDependencies {
  /** 8453 (Base) or 84532 (Base Sepolia). */
  chainId: number;
  keys: SignerKeyProvider;
  /** Nonce reader over the verifying contract's getNonce. */
  nonces: NonceReader;
  /** Optional check against nonces already seen consumed; a hit raises a reuse alert and forces a fresh read. */
  consumedNonces?: ConsumedNonceLookup;
  clock?: Clock;
  logger?: Logger;
  /** The platform's audit log, where reuse alerts are also recorded. */
  audit?: AuditRecorder;
}

/** Resolved dependencies with defaults applied. */
export interface IssuerContext extends Required<Omit<IssuerDependencies, 'consumedNonces' | 'audit'>> {
  consumedNonces?: ConsumedNonceLookup;
  audit?: AuditRecorder;
}

/** Applies defaults and checks the chain id. */
export function issuerContext(deps: IssuerDependencies): IssuerContext {
  if (!isSupportedChainId(deps.chainId)) {
    throw new SignerConfigError(`chain id ${deps.chainId} is not supported (use 8453 or 84532)`);
  }
  return { ...deps, clock: deps.clock ?? systemClock, logger: deps.logger ?? pino({ level: 'silent' }) };
}

/**
 * The nonce to sign for `user`: the contract's, through the cache. If the lookup knows it as consumed, the cache
 * was stale: alert, re-read from the chain, and refuse if the chain still lags behind.
 */
export async function usableNonce(
  ctx: IssuerContext,
  kind: SignatureKind,
  contract: string,
  user: string,
): Promise<bigint> {
  const nonce = await ctx.nonces.read(user);
  const lookup = ctx.consumedNonces;
  if (!lookup || !(await lookup.isConsumed({ chainId: ctx.chainId, contract, user, nonce }))) return nonce;
  reportReuseAttempt(
    { kind, reason: 'nonce_consumed', chainId: ctx.chainId, contract, requester: user, nonce },
    ctx.logger,
    ctx.audit,
  );
  ctx.nonces.invalidate(user);
  const fresh = await ctx.nonces.read(user);
  if (await lookup.isConsumed({ chainId: ctx.chainId, contract, user, nonce: fresh })) {
    throw nonceStale(user, fresh);
  }
  return fresh;
}

/** Builds the record of an issued signature, counts and logs it, and drops the user's cached nonce. */
export function completeIssue(
  ctx: IssuerContext,
  startedAt: bigint,
  fields: Omit<SignatureRecord, 'chainId' | 'signatureHash' | 'issuedAt'>,
): SignatureRecord {
  ctx.nonces.invalidate(fields.requester);
  const record: SignatureRecord = {
    ...fields,
    chainId: ctx.chainId,
    signatureHash: signatureHashOf(fields.signature),
    issuedAt: new Date(ctx.clock.now()),
  };
  signaturesIssued.inc({ kind: record.kind, chain_id: String(ctx.chainId) });
  signatureIssueLatency.observe({ kind: record.kind }, Number(process.hrtime.bigint() - startedAt) / 1e9);
  ctx.logger.info(
    {
      kind: record.kind,
      chainId: record.chainId,
      contract: record.contract,
      requester: record.requester,
      nonce: record.nonce,
      signatureHash: record.signatureHash,
      expiresAt: record.expiresAt?.toISOString() ?? null,
    },
    'signature issued',
  );
  return record;
}
