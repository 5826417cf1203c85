import { getAddress } from 'ethers';
import { z } from 'zod';
import { FORGE_PATH_COUNT, type ForgePath } from '../../contracts/typedData';
import { SIGNATURE_KINDS } from '../../models/IssuedSignature';

const MAX_UINT256 = 2n ** 256n - 1n;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** True unless `value` is a hex address in mixed case that is not its EIP-55 checksum. */
function checksumAccepted(value: string): boolean {
  if (!HEX_ADDRESS.test(value) || value === value.toLowerCase()) return true;
  return value === getAddress(value.toLowerCase());
}

/** SPEC 4.10 rule 2: an address, EIP-55 checksummed or all lowercase; mixed case must be the checksum. */
export const SignerAddressSchema = z
  .string()
  .regex(HEX_ADDRESS, { error: 'expected 0x followed by 40 hex digits' })
  .refine(checksumAccepted, {
    error:
      'mixed-case address with an invalid EIP-55 checksum (send the checksummed or the all-lowercase form)',
  })
  .meta({
    description: 'EIP-55 checksummed or all-lowercase address',
    example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  });

const address = SignerAddressSchema;

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: 'expected 0x followed by 64 hex digits' });

const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, { error: 'expected a 65-byte signature: 0x followed by 130 hex digits' });

const nonce = z
  .number()
  .int()
  .min(0)
  .meta({ description: "The contract's nonce of the address that the signature carries" });

/** A forge path as sent (an integer 0-4); the request schema types it as ForgePath. */
export const ForgePathSchema = z
  .number({ error: 'expected an integer 0-4' })
  .int({ error: 'expected an integer 0-4' })
  .min(0, { error: 'expected an integer 0-4' })
  .max(FORGE_PATH_COUNT - 1, { error: 'expected an integer 0-4' })
  .meta({ description: 'Forge path (uint8): 0 Labor, 1 Craft, 2 Trade, 3 Wisdom, 4 Chaos' });

/** `zenCommitted` as sent (a decimal string); the request schema parses it to a bigint. */
export const ZenAmountSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,77}$/, {
    error: 'expected a positive decimal integer (digits only, no sign, exponent or leading zeros)',
  })
  .refine((value) => !/^[1-9][0-9]*$/.test(value) || BigInt(value) <= MAX_UINT256, {
    error: 'must fit in uint256',
  })
  .meta({
    description: 'Decimal uint256 amount in the smallest unit; the soft-currency balance must cover it',
  });

/** A forge id as sent (32-byte hex, any case); the request schema lowercases it. */
export const ForgeIdSchema = bytes32.meta({ description: 'The forgeId of a started forge' });

/** A request address, parsed to its EIP-55 checksummed form (what the commands sign for and store). */
const requestAddress = address.transform((value) => getAddress(value.toLowerCase()));

/** `POST /api/forge/start`: validated once here; the command receives the parsed values. */
export const ForgeStartRequestSchema = z
  .object({
    forger: requestAddress,
    path: ForgePathSchema.transform((value) => value as ForgePath),
    zenCommitted: ZenAmountSchema.transform((value) => BigInt(value)),
  })
  .meta({ id: 'ForgeStartRequest' });

export const ForgeStartResponseSchema = z
  .object({
    forgeId: bytes32.meta({
      description: 'keccak256(forger, path, expiresAt, nonce): the id startForge stores',
    }),
    signature: signature.meta({ description: 'EIP-712 ForgeStart signature for startForge' }),
    nonce,
    expiresAt: z.number().int().meta({
      description:
        'Unix seconds: mine startForge in a block with a timestamp from expiresAt - 30 to expiresAt',
    }),
  })
  .meta({ id: 'ForgeStartSignature' });

/** `POST /api/forge/claim`: the forgeId lowercased, the forger checksummed. */
export const ForgeClaimRequestSchema = z
  .object({
    forgeId: ForgeIdSchema.transform((value) => value.toLowerCase()),
    forger: requestAddress,
  })
  .meta({ id: 'ForgeClaimRequest' });

export const SignatureResponseSchema = z
  .object({ signature: signature.meta({ description: 'Signature for the contract call' }), nonce })
  .meta({ id: 'ContractSignature' });

/** `POST /api/punk-seed/mint`: the minter's address, checksummed. */
export const PunkSeedMintRequestSchema = z
  .object({ address: requestAddress })
  .meta({ id: 'PunkSeedMintRequest' });

export const ReuseReportRequestSchema = z
  .object({
    signature: signature.meta({ description: 'A signature this server issued whose transaction reverted' }),
  })
  .meta({ id: 'SignatureReuseReport' });

export const ReuseReportResponseSchema = z
  .object({
    signatureHash: bytes32,
    kind: z.enum(SIGNATURE_KINDS),
    used: z.literal(true),
  })
  .meta({ id: 'SignatureReuseReportResult' });

export type ForgeStartRequest = z.infer<typeof ForgeStartRequestSchema>;
export type ForgeClaimRequest = z.infer<typeof ForgeClaimRequestSchema>;
export type PunkSeedMintRequest = z.infer<typeof PunkSeedMintRequestSchema>;
export type ReuseReportRequest = z.infer<typeof ReuseReportRequestSchema>;
export type ForgeStartResponse = z.infer<typeof ForgeStartResponseSchema>;
export type SignatureResponse = z.infer<typeof SignatureResponseSchema>;
export type ReuseReportResponse = z.infer<typeof ReuseReportResponseSchema>;
