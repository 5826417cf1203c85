import type { Request, RequestHandler } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../../access/authGuard';
import { signerDisabled, signerError } from './errors';
import type { ReuseReports } from './usage/reuseReports';
import {
  ForgeClaimRequestSchema,
  ForgeStartRequestSchema,
  ForgeStartResponseSchema,
  PunkSeedMintRequestSchema,
  ReuseReportRequestSchema,
  ReuseReportResponseSchema,
  SignatureResponseSchema,
} from './schemas';
import type { SignatureRequestContext, SignatureService } from './signatureService';

const TAGS = ['signer'];
// 400, 401, 429 and 500 are documented by ApiRoutes (429 here: SIGNER_RATE_LIMITED, SIGNER_FORGE_COOLDOWN).
const ERRORS = {
  403: { description: 'SIGNER_ADDRESS_NOT_OWNED: the address is not a wallet of the signed-in user' },
  415: { description: 'UNSUPPORTED_MEDIA_TYPE: the body is not application/json' },
  501: { description: 'SIGNER_DISABLED: signature issuing is not configured on this server' },
  503: {
    description:
      'The signer is stopped (SIGNER_ADDRESS_MISMATCH, SIGNER_KEY_UNAVAILABLE, SIGNER_MISCONFIGURED) or the chain ' +
      'is unreachable (SIGNER_CHAIN_UNAVAILABLE, SIGNER_NONCE_STALE)',
  },
};

/** SPEC 4.10: the body must be JSON (anything else would reach validation as an empty body). */
const requireJson: RequestHandler = (req, _res, next) => {
  next(
    req.is('application/json')
      ? undefined
      : signerError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'),
  );
};

/** Where a route's request came from, for the signer's log line and audit record. */
function requestContext(req: Request): SignatureRequestContext {
  return { logger: req.log, ip: req.ip ?? null, requestId: req.id };
}

/**
 * The signature routes (SPEC 4.10). Every route: authenticate (401) → signer configured (501) → JSON (415) →
 * validate (400) → the caller may act for the address (403) → signer ready (503) → command (rate limit 429, rule
 * checks, sign, store) → 200, the checks from the access step on being the signature service's (the same ones
 * the MCP gateway's tools run). With signing off, the routes still exist and answer 501.
 */
export function registerSignerRoutes(
  routes: ApiRoutes,
  guard: AuthGuard,
  signatures: SignatureService,
  reports: ReuseReports | undefined,
): void {
  const whileEnabled: RequestHandler = (_req, _res, next) => {
    next(signatures.enabled ? undefined : signerDisabled());
  };
  const middleware = [...guard.requireBrainAuth, whileEnabled, requireJson];

  routes.add({
    method: 'post',
    path: '/api/forge/start',
    summary: 'Issue a ForgeStart signature (EIP-712) for TheForge.startForge',
    description:
      'Checks the soft-currency balance (409 SIGNER_INSUFFICIENT_BALANCE) and the cooldown between forges of the ' +
      'forger (429 SIGNER_FORGE_COOLDOWN), predicts the forgeId from the latest block timestamp plus the buffer ' +
      '(returned as expiresAt) and signs it with the forger’s current contract nonce.',
    tags: TAGS,
    security: 'bearer',
    middleware,
    request: { body: ForgeStartRequestSchema },
    responses: {
      200: { description: 'Signature issued', schema: ForgeStartResponseSchema },
      ...ERRORS,
      409: { description: 'SIGNER_INSUFFICIENT_BALANCE: the soft-currency balance is below zenCommitted' },
    },
    handler: async ({ body, req }) => ({
      status: 200,
      body: await signatures.startForge(body, req.principal, requestContext(req)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/api/forge/claim',
    summary: 'Issue a ForgeClaim signature (EIP-712) for TheForge.claimForge',
    description:
      'Only for a forge that is on chain (404), started by the forger (403) and not yet claimed (409).',
    tags: TAGS,
    security: 'bearer',
    middleware,
    request: { body: ForgeClaimRequestSchema },
    responses: {
      200: { description: 'Signature issued', schema: SignatureResponseSchema },
      ...ERRORS,
      403: {
        description: 'SIGNER_ADDRESS_NOT_OWNED, or SIGNER_FORGE_NOT_OWNED: the forge has another forger',
      },
      404: { description: 'SIGNER_FORGE_NOT_FOUND: no forge with this id on chain (yet)' },
      409: { description: 'SIGNER_FORGE_ALREADY_CLAIMED' },
    },
    handler: async ({ body, req }) => ({
      status: 200,
      body: await signatures.claimForge(body, req.principal, requestContext(req)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/api/punk-seed/mint',
    summary: 'Issue a seed-token mint signature (EIP-191 personal message) for PunkSeed.mintWithSignature',
    tags: TAGS,
    security: 'bearer',
    middleware,
    request: { body: PunkSeedMintRequestSchema },
    responses: { 200: { description: 'Signature issued', schema: SignatureResponseSchema }, ...ERRORS },
    handler: async ({ body, req }) => ({
      status: 200,
      body: await signatures.mintPunkSeed(body, req.principal, requestContext(req)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/api/signatures/reuse-reports',
    summary: 'Report a transaction that reverted with SignatureAlreadyUsed (raises the reuse alert)',
    description:
      'The signature must be one this server issued (404 SIGNER_SIGNATURE_UNKNOWN) for a wallet of the caller ' +
      '(403), and the contract must confirm it consumed it (409 SIGNER_SIGNATURE_NOT_USED). Counts against the ' +
      'address’s signature request limit.',
    tags: TAGS,
    security: 'bearer',
    middleware,
    request: { body: ReuseReportRequestSchema },
    responses: {
      200: {
        description: 'Alert raised; the signature is recorded as used',
        schema: ReuseReportResponseSchema,
      },
      ...ERRORS,
      404: { description: 'SIGNER_SIGNATURE_UNKNOWN' },
      409: { description: 'SIGNER_SIGNATURE_NOT_USED' },
    },
    handler: async ({ body, req }) => ({
      status: 200,
      body: await (reports as ReuseReports).report(
        body.signature,
        (address) => signatures.callerFor(req.principal, address, requestContext(req)),
        req.log,
      ),
    }),
  });
}
