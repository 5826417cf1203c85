import type { Logger } from 'pino';
import type { Principal } from '../auth';
import { signerDisabled } from './errors';
import type { SignatureCaller, SignatureCommands } from './issuing/signatureCommands';
import type { SignatureRequester } from './issuing/signatureStore';
import type { SignerAvailability } from './keys/signerAvailability';
import type { SignatureAccess } from './policy/signatureAccess';
import type {
  ForgeClaimRequest,
  ForgeStartRequest,
  ForgeStartResponse,
  PunkSeedMintRequest,
  SignatureResponse,
} from './schemas';

/** Where a request came from, for the signer's log line and audit record (the routes take it from Express). */
export interface SignatureRequestContext {
  logger?: Logger;
  ip?: string | null;
  requestId?: string | null;
}

/**
 * The signer's signature commands for callers without Express (the MCP gateway), and for its own routes: each
 * takes the principal the auth area authenticated and a request the signer's schemas parsed. Every command runs
 * the routes' checks in their order: signer configured (501 `SIGNER_DISABLED`) → the principal may act for the
 * address (401, 403 `SIGNER_ADDRESS_NOT_OWNED`) → signer ready (503) → the command (429, rule checks, sign, store).
 */
export interface SignatureService {
  /** Whether signature issuing is configured (SIGNER_CHAIN_ID set). */
  readonly enabled: boolean;
  /** Who is asking, when `principal` may ask for `address`; throws 501, 401 or 403 otherwise. */
  requireMayRequestFor(principal: Principal | undefined, address: string): Promise<SignatureRequester>;
  /** `requireMayRequestFor`, then the signer's readiness (503): the caller a command records. */
  callerFor(
    principal: Principal | undefined,
    address: string,
    context?: SignatureRequestContext,
  ): Promise<SignatureCaller>;
  startForge(
    request: ForgeStartRequest,
    principal: Principal | undefined,
    context?: SignatureRequestContext,
  ): Promise<ForgeStartResponse>;
  claimForge(
    request: ForgeClaimRequest,
    principal: Principal | undefined,
    context?: SignatureRequestContext,
  ): Promise<SignatureResponse>;
  mintPunkSeed(
    request: PunkSeedMintRequest,
    principal: Principal | undefined,
    context?: SignatureRequestContext,
  ): Promise<SignatureResponse>;
}

/** What a configured signer's service is built from. */
export interface SignatureServiceParts {
  access: SignatureAccess;
  availability: SignerAvailability;
  commands: SignatureCommands;
}

/** The signature service of a configured signer (`parts`), or of one that is off (every command: 501). */
export function createSignatureService(parts: SignatureServiceParts | undefined): SignatureService {
  const configured = (): SignatureServiceParts => {
    if (!parts) throw signerDisabled();
    return parts;
  };
  const requireMayRequestFor = (principal: Principal | undefined, address: string) =>
    configured().access.requireMayRequestFor(principal, address);
  const callerFor = async (
    principal: Principal | undefined,
    address: string,
    context: SignatureRequestContext = {},
  ): Promise<SignatureCaller> => {
    const requester = await requireMayRequestFor(principal, address);
    await configured().availability.ensureReady();
    return {
      ...requester,
      logger: context.logger,
      ip: context.ip ?? null,
      requestId: context.requestId ?? null,
    };
  };
  return {
    enabled: parts !== undefined,
    requireMayRequestFor,
    callerFor,
    startForge: async (request, principal, context) =>
      configured().commands.startForge(request, await callerFor(principal, request.forger, context)),
    claimForge: async (request, principal, context) =>
      configured().commands.claimForge(request, await callerFor(principal, request.forger, context)),
    mintPunkSeed: async (request, principal, context) =>
      configured().commands.mintPunkSeed(request, await callerFor(principal, request.address, context)),
  };
}
