import type { Currency } from '../../models/EconomyAccount';
import { SYSTEM_ACCOUNTS, systemAccount } from './accountIds';
import type { EconomyCore } from './economyCore';
import type { OperationOutcome } from './operations';

/** A grant: new coins for one account (game rewards, support, acceptance tests), by the service token or an admin. */
export interface GrantInput {
  /** The receiving account (a user's, or an unlinked address's). */
  account: string;
  currency: Currency;
  amount: number;
  reason: string;
  idempotencyKey: string;
  /** Who granted: `service` or `user:<id>` (kept with the operation and in the audit events). */
  grantor: string;
}

/**
 * Issues `amount` to the account, once per idempotency key. Coins come from the issuer account: soft without limit,
 * hard as a debit of what is left under the 21,000,000 cap, so a grant past it is refused whole with 409
 * SUPPLY_CAP_REACHED (concurrent grants race on the issuer's compare-and-set and can never pass the cap together).
 */
export async function grantCoins(core: EconomyCore, input: GrantInput): Promise<OperationOutcome> {
  const id = `grant:${input.idempotencyKey}`;
  const outcome = await core.runner.run({
    id,
    kind: 'grant',
    ref: input.reason,
    request: { account: input.account, currency: input.currency, amount: input.amount, reason: input.reason },
    legs: [
      {
        account: systemAccount(SYSTEM_ACCOUNTS.issuer, input.currency, id),
        currency: input.currency,
        delta: -input.amount,
        kind: 'grant',
        floor: input.currency === 'hard' ? 'available' : 'none',
      },
      { account: input.account, currency: input.currency, delta: input.amount, kind: 'grant', floor: 'none' },
    ],
    meta: { account: input.account, reason: input.reason, grantor: input.grantor },
  });
  if (!outcome.replayed)
    core.events.record({
      type: 'economy.grant',
      actor: input.grantor,
      operation: outcome.operation._id,
      currency: input.currency,
      amount: input.amount,
      detail: { account: input.account, reason: input.reason },
    });
  return outcome;
}
