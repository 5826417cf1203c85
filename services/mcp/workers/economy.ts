import { z } from 'zod';
import { IdempotencyKeySchema } from '../../../platform/http/idempotencyKey';
import { UnauthorizedError } from '../../../platform/errors';
import type { Principal } from '../../../access/principal';
import type { EconomyService } from '../../economy';
import { presentLedger, presentTransfer, presentWallet } from '../../economy';
import { AmountSchema, CurrencySchema, LedgerPageSchema, TransferSchema, WalletSchema } from '../../economy';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';

const userId = z.string().regex(/^[0-9a-f]{24}$/, { error: 'expected a user id (24 hex digits)' });

const LedgerInput = z.strictObject({
  currency: CurrencySchema.optional().meta({
    description: 'Only this currency (soft or hard); default both',
  }),
  limit: z
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .meta({ description: 'Entries per page (1-200, default 50)' }),
  cursor: z
    .string()
    .regex(/^[0-9a-f]{24}$/, { error: 'expected the next_cursor of a previous page' })
    .optional()
    .meta({ description: 'next_cursor of the previous page' }),
});

const TransferInput = z.strictObject({
  to_user_id: userId.meta({ description: 'The user to pay' }),
  currency: CurrencySchema,
  amount: AmountSchema,
  memo: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: 'A note the recipient sees (≤ 200 characters)' }),
  idempotency_key: IdempotencyKeySchema.meta({
    description:
      'Required. A new key per intended payment (8-128 of letters, digits, . _ : -); retrying with the same key ' +
      'returns the first result instead of paying twice',
  }),
});

/** The caller's user id: these tools act for a signed-in user only (ACCESS.player keeps the service token out). */
function callerId(caller: Principal): string {
  if (caller.kind !== 'user') throw new UnauthorizedError('Sign in first');
  return caller.userId.toHexString();
}

/**
 * The economy worker: the caller's wallet and ledger, and paying another player. Every tool acts as the caller
 * through the economy's service interface; no tool reads or moves another user's coins.
 */
export function economyWorker(economy: EconomyService): Worker {
  return {
    name: 'economy',
    description: 'Your coins: balances, ledger and payments to other players (soft and hard currency).',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'economy_wallet',
        title: 'My balances',
        description:
          'Your spendable soft and hard currency and the soft currency on hold (forge starts), as decimal strings ' +
          'in the smallest unit. Use it before buying or paying to check you can afford it.',
        input: z.strictObject({}),
        output: WalletSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: async (_input, { caller }) => presentWallet(await economy.wallet(callerId(caller))),
        summarise: (wallet) => `Soft ${wallet.soft}, hard ${wallet.hard}, held ${wallet.held}.`,
      }),
      defineTool({
        name: 'economy_ledger',
        title: 'My ledger',
        description:
          'Your ledger lines, newest first: every change of your balances with its kind (transfer, sale, purchase, ' +
          'grant, hold, …), signed delta, balance after and reference. Page with next_cursor.',
        input: LedgerInput,
        output: LedgerPageSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: async (input, { caller }) => presentLedger(await economy.ledger(callerId(caller), input)),
        summarise: (page) =>
          page.entries.length === 0
            ? 'No ledger entries.'
            : `${page.entries.length} entries, newest ${page.entries[0].kind} ${page.entries[0].delta} ` +
              `${page.entries[0].currency}${page.next_cursor ? '; more with next_cursor' : ''}.`,
      }),
      defineTool({
        name: 'economy_transfer',
        title: 'Pay another player',
        description:
          'Moves soft or hard currency from your spendable balance to another user. Cannot be undone. Idempotent ' +
          'per idempotency_key: a retry with the same key returns the first transfer; the same key with other ' +
          'arguments is IDEMPOTENCY_CONFLICT. Refusals: INSUFFICIENT_FUNDS, TRANSFER_TO_SELF, RECIPIENT_NOT_FOUND. ' +
          'Needs identity tier 1: guests hold coins but move none out.',
        input: TransferInput,
        output: TransferSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.registeredPlayer,
        callsPerMinute: 30,
        confirm: (input) =>
          Promise.resolve(
            `Pay ${input.amount} ${input.currency} to user ${input.to_user_id}? This cannot be undone.`,
          ),
        handler: async (input, { caller }) => {
          const { operation } = await economy.transfer({
            fromUserId: callerId(caller),
            toUserId: input.to_user_id,
            currency: input.currency,
            amount: input.amount,
            memo: input.memo,
            idempotencyKey: input.idempotency_key,
          });
          return presentTransfer(operation);
        },
        summarise: (transfer) =>
          `Paid ${transfer.amount} ${transfer.currency} to ${transfer.to_user_id}; your balance is now ` +
          `${transfer.balance_after}.`,
      }),
    ],
  };
}
