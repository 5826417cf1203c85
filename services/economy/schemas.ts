import { z } from 'zod';
import { CURRENCIES, LEDGER_KINDS } from '../../models/EconomyAccount';
import { IdempotencyKeySchema } from '../../platform/http/idempotencyKey';

/** Largest amount the economy handles (2^53 - 1 smallest units: exact in JSON numbers and in MongoDB doubles). */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit id');
const decimal = z.string().meta({ description: 'Integer in the smallest unit, as a decimal string' });

export const CurrencySchema = z.enum(CURRENCIES).meta({ id: 'Currency', description: 'soft or hard' });

/** A positive amount on the wire: a decimal string (a JSON integer is accepted too), at most 2^53 - 1. */
export const AmountSchema = z
  .union([z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be a positive integer'), z.number().int().positive()])
  .transform((value, ctx) => {
    const amount = Number(value);
    if (amount > MAX_AMOUNT) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_AMOUNT}` });
      return z.NEVER;
    }
    return amount;
  })
  .meta({ description: 'Positive integer in the smallest unit, as a decimal string', examples: ['250'] });

/** The idempotency key of a money-moving request, shared by every area that moves money (`platform/http`). */
export { IdempotencyKeySchema };

export const WalletSchema = z
  .object({ soft: decimal, hard: decimal, held: decimal, updated_at: z.iso.datetime().nullable() })
  .meta({
    id: 'EconomyWallet',
    description: 'Spendable soft and hard balances and the soft currency on hold',
  });

export const LedgerQuerySchema = z.object({
  cursor: objectId.optional(),
  currency: CurrencySchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const LedgerEntrySchema = z
  .object({
    id: z.string(),
    currency: CurrencySchema,
    delta: z.string().meta({ description: 'Signed change of the spendable balance' }),
    held_delta: z.string(),
    balance_after: z.string(),
    held_after: z.string(),
    kind: z.enum(LEDGER_KINDS),
    ref: z.string(),
    idempotency_key: z.string(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'EconomyLedgerEntry' });

export const LedgerPageSchema = z
  .object({ entries: z.array(LedgerEntrySchema), next_cursor: z.string().nullable() })
  .meta({ id: 'EconomyLedgerPage' });

export const TransferRequestSchema = z
  .object({
    to_user_id: objectId,
    currency: CurrencySchema,
    amount: AmountSchema,
    memo: z.string().trim().max(200).optional(),
    idempotency_key: IdempotencyKeySchema.optional(),
  })
  .meta({ id: 'EconomyTransferRequest' });
export type TransferRequest = z.infer<typeof TransferRequestSchema>;

export const TransferSchema = z
  .object({
    transfer_id: z.string(),
    from_user_id: z.string(),
    to_user_id: z.string(),
    currency: CurrencySchema,
    amount: decimal,
    memo: z.string().nullable(),
    balance_after: decimal.meta({ description: "The sender's spendable balance right after the transfer" }),
    at: z.iso.datetime(),
  })
  .meta({ id: 'EconomyTransfer' });

export const GrantRequestSchema = z
  .object({
    user_id: objectId.optional(),
    address: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hex digits')
      .optional(),
    currency: CurrencySchema,
    amount: AmountSchema,
    reason: z.string().trim().min(1).max(100),
    idempotency_key: IdempotencyKeySchema.optional(),
  })
  .refine((body) => (body.user_id === undefined) !== (body.address === undefined), {
    message: 'give exactly one of user_id and address',
    path: ['user_id'],
  })
  .meta({ id: 'EconomyGrantRequest' });
export type GrantRequest = z.infer<typeof GrantRequestSchema>;

export const GrantSchema = z
  .object({
    grant_id: z.string(),
    account: z.string().meta({ description: '`user:<id>` or `address:<0x…>`' }),
    currency: CurrencySchema,
    amount: decimal,
    reason: z.string(),
    balance_after: decimal,
    at: z.iso.datetime(),
  })
  .meta({ id: 'EconomyGrant' });

const currencyAudit = z.object({
  balances: decimal,
  holds: decimal,
  fees: decimal,
  decayed: decimal,
  minted: decimal,
  burned: decimal,
  in_flight: decimal,
  ok: z.boolean(),
});

export const AuditSchema = z
  .object({
    ok: z.boolean(),
    soft: currencyAudit,
    hard: currencyAudit.extend({ cap: decimal, within_cap: z.boolean() }),
    accounts: z.number().int(),
    ledger_entries: z.number().int(),
    mismatched_accounts: z.array(z.string()),
    pending_operations: z.number().int(),
    took_ms: z.number().int(),
  })
  .meta({
    id: 'EconomyAudit',
    description: 'balances + holds + fees + decayed + in_flight = minted - burned',
  });
