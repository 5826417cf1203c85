import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../../platform/clock';
import { AppError } from '../../../platform/errors';
import { parseAddress } from './addressFormat';
import { parseForgeId, parseForgePath, parseZenCommitted } from './forgeInputs';
import type { SignatureRequestPolicy } from '../policy/requestPolicy';
import type { SignatureKind, SignatureRecord } from './signatureRecord';
import type { SignatureRequester } from './signatureStore';
import type { SignerCore } from './signerCore';

/** Where issued signatures are kept (SPEC 4.10 rule 5); MongoSignatureStore implements it. */
export interface IssuedSignatureStore {
  save(record: SignatureRecord, requester: SignatureRequester): Promise<void>;
}

/** Who is calling a command: stored with the signature, and the logger of the request (carries its id). */
export interface SignatureCaller extends SignatureRequester {
  logger?: Logger;
}

/** Response of POST /api/forge/start (SPEC 2.5). */
export interface ForgeStartResponse {
  forgeId: string;
  signature: string;
  nonce: number;
  expiresAt: number;
}

/** Response of POST /api/forge/claim and POST /api/punk-seed/mint (SPEC 2.6, 2.7). */
export interface SignatureResponse {
  signature: string;
  nonce: number;
}

/** Dependencies of the signature commands. */
export interface SignatureCommandDependencies {
  core: SignerCore;
  policy: SignatureRequestPolicy;
  store: IssuedSignatureStore;
  clock?: Clock;
  logger?: Logger;
}

/** The three signature-issuing commands behind SPEC 4.10's routes. */
export interface SignatureCommands {
  /** `{forger, path, zenCommitted}` → `{forgeId, signature, nonce, expiresAt}`. */
  startForge(
    body: { forger?: unknown; path?: unknown; zenCommitted?: unknown },
    caller: SignatureCaller,
  ): Promise<ForgeStartResponse>;
  /** `{forgeId, forger}` → `{signature, nonce}`. */
  claimForge(
    body: { forgeId?: unknown; forger?: unknown },
    caller: SignatureCaller,
  ): Promise<SignatureResponse>;
  /** `{address}` → `{signature, nonce}`. */
  mintPunkSeed(body: { address?: unknown }, caller: SignatureCaller): Promise<SignatureResponse>;
}

function asResponseNonce(nonce: bigint): number {
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`nonce ${nonce} exceeds a JSON-safe integer`);
  return Number(nonce);
}

/**
 * The commands a route handler calls with the parsed JSON body: validate (400) → per-address limit (429) →
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
    try {
      const result = await run();
      log.info({ ...entry, outcome: 'issued' }, 'signature request');
      return result;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'INTERNAL_ERROR';
      log.info({ ...entry, outcome: 'rejected', code }, 'signature request');
      throw error;
    }
  }

  return {
    startForge: (body, caller) =>
      handle('forge-start', body.forger, caller, async () => {
        const forger = parseAddress(body.forger, 'forger');
        const path = parseForgePath(body.path, 'path');
        const zenCommitted = parseZenCommitted(body.zenCommitted, 'zenCommitted');
        await policy.admitRequest(forger);
        await policy.requireBalance(forger, zenCommitted);
        // Stored inside the cooldown: a signature that could not be stored is not issued, and takes no cooldown.
        const issued = await policy.withForgeCooldown(forger, async () => {
          const started = await core.forgeIssuer.issueStart({ forger, path, zenCommitted });
          await store.save(started.record, caller);
          return started;
        });
        const { forgeId, signature, nonce, expiresAt } = issued;
        return { forgeId, signature, nonce: asResponseNonce(nonce), expiresAt };
      }),
    claimForge: (body, caller) =>
      handle('forge-claim', body.forger, caller, async () => {
        const forgeId = parseForgeId(body.forgeId, 'forgeId');
        const forger = parseAddress(body.forger, 'forger');
        await policy.admitRequest(forger);
        const issued = await core.forgeIssuer.issueClaim({ forgeId, forger });
        await store.save(issued.record, caller);
        return { signature: issued.signature, nonce: asResponseNonce(issued.nonce) };
      }),
    mintPunkSeed: (body, caller) =>
      handle('punk-seed-mint', body.address, caller, async () => {
        const address = parseAddress(body.address, 'address');
        await policy.admitRequest(address);
        const issued = await core.mintIssuer.issueMint({ address });
        await store.save(issued.record, caller);
        return { signature: issued.signature, nonce: asResponseNonce(issued.nonce) };
      }),
  };
}
