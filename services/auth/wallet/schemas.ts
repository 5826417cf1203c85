import { z } from 'zod';

/** 20-byte hex address; checksum case is accepted in either form here and compared case-insensitively. */
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'expected a 0x-prefixed 20-byte hex address' });
const timestamp = z.iso.datetime();

export const NonceResponseSchema = z
  .object({
    nonce: z.string().meta({ description: 'Hexadecimal, single use, valid SIWE_NONCE_TTL_SECONDS' }),
  })
  .meta({ id: 'WalletNonce' });

export const WalletVerifyRequestSchema = z
  .object({
    address,
    signature: z
      .string()
      .max(8192)
      .regex(/^0x([0-9a-fA-F]{2})+$/, { error: 'expected a 0x-prefixed hex signature' }),
    nonce: z.string().regex(/^[0-9a-fA-F]{8,64}$/, { error: 'expected the hexadecimal nonce' }),
    message: z.string().min(1).max(4096).meta({ description: 'The EIP-4361 message that was signed' }),
  })
  .meta({ id: 'WalletVerifyRequest' });

export const WalletSessionSchema = z
  .object({ token: z.string(), address: z.string(), issued_at: timestamp, expires_at: timestamp })
  .meta({ id: 'WalletSession' });

export type WalletVerifyRequest = z.infer<typeof WalletVerifyRequestSchema>;
export type WalletSessionBody = z.infer<typeof WalletSessionSchema>;
