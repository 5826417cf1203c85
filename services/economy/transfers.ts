import type { Currency } from '../../models/EconomyAccount';
import { userAccount } from './accountIds';
import type { EconomyCore } from './economyCore';
import { recipientNotFound, transferToSelf } from './errors';
import type { OperationOutcome } from './operations';

/** A player-to-player payment. Both currencies move; the amount is capped only by the sender's spendable balance. */
export interface TransferInput {
  fromUserId: string;
  toUserId: string;
  currency: Currency;
  amount: number;
  memo?: string;
  idempotencyKey: string;
}

/** Whether a platform user exists (the recipient check). */
export type UserExists = (userId: string) => Promise<boolean>;

/**
 * Moves `amount` from the sender's spendable balance to the recipient, once per (sender, idempotency key): 409
 * TRANSFER_TO_SELF, 404 RECIPIENT_NOT_FOUND, 409 INSUFFICIENT_FUNDS, 409 IDEMPOTENCY_CONFLICT; a retry answers the
 * first outcome with `replayed`.
 */
export async function transferCoins(
  core: EconomyCore,
  userExists: UserExists,
  input: TransferInput,
): Promise<OperationOutcome> {
  if (input.fromUserId === input.toUserId) throw transferToSelf();
  if (!(await userExists(input.toUserId))) throw recipientNotFound(input.toUserId);
  const from = userAccount(input.fromUserId);
  const to = userAccount(input.toUserId);
  const outcome = await core.runner.run({
    id: `transfer:${input.fromUserId}:${input.idempotencyKey}`,
    kind: 'transfer',
    ref: `${from}>${to}`,
    request: { to: input.toUserId, currency: input.currency, amount: input.amount, memo: input.memo },
    legs: [
      { account: from, currency: input.currency, delta: -input.amount, kind: 'transfer', floor: 'available' },
      { account: to, currency: input.currency, delta: input.amount, kind: 'transfer', floor: 'none' },
    ],
    meta: { from: input.fromUserId, to: input.toUserId, memo: input.memo ?? null },
  });
  if (!outcome.replayed)
    core.events.record({
      type: 'economy.transfer',
      actor: from,
      operation: outcome.operation._id,
      currency: input.currency,
      amount: input.amount,
      detail: { to },
    });
  return outcome;
}
