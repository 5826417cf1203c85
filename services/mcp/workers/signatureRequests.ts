import { z } from 'zod';
import { ForgePath } from '../../../contracts/typedData';
import {
  ForgeClaimRequestSchema,
  ForgeIdSchema,
  ForgePathSchema,
  ForgeStartRequestSchema,
  ForgeStartResponseSchema,
  PunkSeedMintRequestSchema,
  SignatureResponseSchema,
  SignerAddressSchema,
  ZenAmountSchema,
  type SignerArea,
} from '../../signer';
import { ACCESS, defineTool, type AnyTool, type ToolAnnotations, type ToolCall } from '../toolDefinition';

/** Issuing changes no platform state but a hold; the signature reaches a chain once the wallet sends it. */
const SIGNS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
/** Asking again before the nonce is used returns the same signature (claim, mint). */
const SIGNS_AGAIN_SAME: ToolAnnotations = { ...SIGNS, idempotentHint: true };

// The routes' field names and checks (SPEC 4.10), as sent: the handlers parse them with the routes' own schemas.
const ForgeStartInput = z.strictObject({
  forger: SignerAddressSchema.meta({
    description: 'The forger: a wallet you proved (SIWE), checksummed or lowercase',
  }),
  path: ForgePathSchema,
  zenCommitted: ZenAmountSchema,
});
const ForgeClaimInput = z.strictObject({
  forgeId: ForgeIdSchema,
  forger: SignerAddressSchema.meta({ description: 'The forger of that forge: a wallet you proved (SIWE)' }),
});
const PunkSeedMintInput = z.strictObject({
  address: SignerAddressSchema.meta({ description: 'The minter: a wallet you proved (SIWE)' }),
});

const REFUSALS =
  'Refusals: SIGNER_ADDRESS_NOT_OWNED (not a wallet of yours), SIGNER_RATE_LIMITED (10 per minute per address), ' +
  'SIGNER_DISABLED (signing not configured here), SIGNER_* 503 codes while the signer is stopped.';

/**
 * The signature-request tools: the signer's three commands (SPEC 4.10) through its `SignatureService`, with the
 * routes' access (identity tier 1 or the service token; a user only for wallets they proved) and checks. On
 * 2026-07-28 each asks the caller to confirm first (`confirm`), after the checks that need no signing: signing off
 * (SIGNER_DISABLED), not the caller's wallet (SIGNER_ADDRESS_NOT_OWNED) and a stopped signer answer before any
 * question is asked.
 */
export function signatureRequestTools(signer: Pick<SignerArea, 'status' | 'signatures'>): AnyTool[] {
  const { signatures } = signer;
  const origin = ({ logger, ip, requestId }: ToolCall) => ({ logger, ip, requestId });
  /** The routes' checks up to signing (501, 401/403, 503), then the chain the question names. */
  const checked = async (address: string, call: ToolCall) => {
    await signatures.callerFor(call.caller, address, origin(call));
    const status = signer.status();
    return status.enabled ? `chain ${status.chainId}` : 'this chain';
  };
  return [
    defineTool({
      name: 'signer_forge_start',
      title: 'Ask for a forge-start signature',
      description:
        'Issues the EIP-712 ForgeStart signature TheForge.startForge needs, for a wallet you proved: the forger ' +
        'sends startForge(path, zenCommitted, signature) in a block stamped from expiresAt - 30 to expiresAt. ' +
        'Holds zenCommitted of the forger’s soft-currency balance until the forge starts or the signature expires. ' +
        `Also: SIGNER_INSUFFICIENT_BALANCE, SIGNER_FORGE_COOLDOWN (one start per forger per cooldown). ${REFUSALS}`,
      input: ForgeStartInput,
      output: ForgeStartResponseSchema,
      annotations: SIGNS,
      access: ACCESS.registered,
      callsPerMinute: 20,
      cost: 5,
      whileDown: true,
      confirm: async (input, call) => {
        const { forger, path, zenCommitted } = ForgeStartRequestSchema.parse(input);
        return (
          `Sign a forge start for ${forger} on ${await checked(forger, call)}: path ${path} (${ForgePath[path]}), ` +
          `committing ${zenCommitted}? ${zenCommitted} of its soft currency is held until the forge starts or ` +
          'the signature expires.'
        );
      },
      handler: (input, call) =>
        signatures.startForge(ForgeStartRequestSchema.parse(input), call.caller, origin(call)),
      summarise: (issued) =>
        `ForgeStart signed (forge ${issued.forgeId}, nonce ${issued.nonce}); send startForge by ${issued.expiresAt}.`,
    }),
    defineTool({
      name: 'signer_forge_claim',
      title: 'Ask for a forge-claim signature',
      description:
        'Issues the EIP-712 ForgeClaim signature TheForge.claimForge needs, for a forge on chain started by a ' +
        'wallet you proved. Asking again before it is used returns the same signature. Also: ' +
        `SIGNER_FORGE_NOT_FOUND, SIGNER_FORGE_NOT_OWNED, SIGNER_FORGE_ALREADY_CLAIMED. ${REFUSALS}`,
      input: ForgeClaimInput,
      output: SignatureResponseSchema,
      annotations: SIGNS_AGAIN_SAME,
      access: ACCESS.registered,
      callsPerMinute: 20,
      cost: 5,
      whileDown: true,
      confirm: async (input, call) => {
        const { forgeId, forger } = ForgeClaimRequestSchema.parse(input);
        return `Sign the claim of forge ${forgeId} for ${forger} on ${await checked(forger, call)}?`;
      },
      handler: (input, call) =>
        signatures.claimForge(ForgeClaimRequestSchema.parse(input), call.caller, origin(call)),
      summarise: (issued) => `ForgeClaim signed (nonce ${issued.nonce}); send claimForge with it.`,
    }),
    defineTool({
      name: 'signer_punk_seed_mint',
      title: 'Ask for a seed-mint signature',
      description:
        'Issues the EIP-191 signature PunkSeed.mintWithSignature needs to mint one seed token to a wallet you ' +
        `proved. Asking again before it is used returns the same signature. ${REFUSALS}`,
      input: PunkSeedMintInput,
      output: SignatureResponseSchema,
      annotations: SIGNS_AGAIN_SAME,
      access: ACCESS.registered,
      callsPerMinute: 20,
      cost: 5,
      whileDown: true,
      confirm: async (input, call) => {
        const { address } = PunkSeedMintRequestSchema.parse(input);
        return `Sign a PunkSeed mint of one seed token to ${address} on ${await checked(address, call)}?`;
      },
      handler: (input, call) =>
        signatures.mintPunkSeed(PunkSeedMintRequestSchema.parse(input), call.caller, origin(call)),
      summarise: (issued) => `Seed mint signed (nonce ${issued.nonce}); send mintWithSignature with it.`,
    }),
  ];
}
