import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../../platform/clock';
import { AppError } from '../../../platform/errors';
import type { SignatureRequestPolicy } from '../policy/requestPolicy';
import type { SignatureKind, SignatureRecord } from '../../../models/IssuedSignature';
import { presentForgeStart, presentSignature } from '../presenters';
import type {
  ForgeClaimRequest,
  ForgeStartRequest,
  ForgeStartResponse,
  PunkSeedMintRequest,
  SignatureResponse,
} from '../schemas';
import type { SignatureRequester } from './signatureStore';
import type { AuditRecorder } from '../../../models/AuditEvent';
import type { SignerCore } from './signerCore';

/** Where issued signatures are kept (SPEC 4.10 rule 5); MongoSignatureStore implements it. */
export interface IssuedSignatureStore {
  save(record: SignatureRecord, requester: SignatureRequester): Promise<void>;
}

/** Who is calling a command: stored with the signature, and the logger of the request (carries its id). */
export interface SignatureCaller extends SignatureRequester {
  logger?: Logger;
  /** Where the request came from (for the audit log). */
  ip?: string | null;
  requestId?: string | null;
}

/** Dependencies of the signature commands. */
export interface SignatureCommandDependencies {
  core: SignerCore;
  policy: SignatureRequestPolicy;
  store: IssuedSignatureStore;
  clock?: Clock;
  logger?: Logger;
  /** The platform's audit log: every request is recorded there with its outcome (`signer.request`). */
  audit?: AuditRecorder;
}

/**
 * The three signature-issuing commands behind SPEC 4.10's routes. They take requests the HTTP schemas already
 * parsed (`schemas.ts`: addresses checksummed, `zenCommitted` a bigint, `forgeId` lowercased), so input is
 * validated once, where its 400 reaches the caller.
 */
export interface SignatureCommands {
  /** `{forger, path, zenCommitted}` → `{forgeId, signature, nonce, expiresAt}`. */
  startForge(request: ForgeStartRequest, caller: SignatureCaller): Promise<ForgeStartResponse>;
  /** `{forgeId, forger}` → `{signature, nonce}`. */
  claimForge(request: ForgeClaimRequest, caller: SignatureCaller): Promise<SignatureResponse>;
  /** `{address}` → `{signature, nonce}`. */
  mintPunkSeed(request: PunkSeedMintRequest, caller: SignatureCaller): Promise<SignatureResponse>;
}

/**
 * The commands a route handler calls with the parsed request: per-address limit (429) →
 * rule checks (balance 409, cooldown 429) → sign → store → present. Each request is logged with its outcome;
 * nothing is stored for a rejected one.
 */
export function createSignatureCommands(deps: SignatureCommandDependencies): SignatureCommands {
  const { core, policy, store } = deps;
  const logger = deps.logger ?? pino({ level: 'silent' });
  const clock = deps.clock ?? systemClock;

  async function handle<T>(
    kind: SignatureKind,
    requester: unknown,
    caller: SignatureCaller,
    run: () => Promise<T>,
  ): Promise<T> {
    const requestedAt = new Date(clock.now()).toISOString();
    const log = caller.logger ?? logger;
    const entry = { kind, requester, requestedBy: caller.requestedBy, requestedAt };
    const audited = (outcome: string, code?: string) =>
      deps.audit?.record({
        at: new Date(clock.now()),
        actor: caller.requestedBy,
        kind: 'signer.request',
        target: `address:${String(requester).toLowerCase()}`,
        outcome,
        ip: caller.ip ?? null,
        request_id: caller.requestId ?? null,
        details: { type: kind, ...(code ? { code } : {}) },
      });
    try {
      const result = await run();
      log.info({ ...entry, outcome: 'issued' }, 'signature request');
      audited('ok');
      return result;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'INTERNAL_ERROR';
      log.info({ ...entry, outcome: 'rejected', code }, 'signature request');
      audited('refused', code);
      throw error;
    }
  }

  return {
    startForge: ({ forger, path, zenCommitted }, caller) =>
      handle('forge-start', forger, caller, async () => {
        await policy.admitRequest(forger);
        await policy.requireBalance(forger, zenCommitted);
        // Stored inside the cooldown: a signature that could not be stored is not issued, and takes no cooldown.
        const issued = await policy.withForgeCooldown(forger, async () => {
          const started = await core.forgeIssuer.issueStart({ forger, path, zenCommitted });
          const { signatureHash, expiresAt: deadline } = started.record;
          // The hold is placed before the signature leaves the process, and given back if it never does.
          await policy.holdBalance(forger, zenCommitted, signatureHash, deadline ?? new Date(clock.now()));
          try {
            await store.save(started.record, caller);
          } catch (error) {
            await policy.releaseHold(forger, signatureHash);
            throw error;
          }
          return started;
        });
        return presentForgeStart(issued);
      }),
    claimForge: ({ forgeId, forger }, caller) =>
      handle('forge-claim', forger, caller, async () => {
        await policy.admitRequest(forger);
        const issued = await core.forgeIssuer.issueClaim({ forgeId, forger });
        await store.save(issued.record, caller);
        return presentSignature(issued);
      }),
    mintPunkSeed: ({ address }, caller) =>
      handle('punk-seed-mint', address, caller, async () => {
        await policy.admitRequest(address);
        const issued = await core.mintIssuer.issueMint({ address });
        await store.save(issued.record, caller);
        return presentSignature(issued);
      }),
  };
}
