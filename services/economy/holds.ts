import { SYSTEM_ACCOUNTS, systemAccount } from './accountIds';
import type { EconomyCore } from './economyCore';
import type { OperationOutcome } from './operations';

/** A hold on soft currency: `amount` leaves the spendable balance until the hold is consumed or released. */
export interface HoldInput {
  account: string;
  holdId: string;
  amount: number;
  /** After this (plus the sweeper's grace) an unconsumed hold is released. */
  expiresAt: Date;
  /** What the hold is for, e.g. `forge-start`. */
  purpose: string;
}

/** Places the hold once per hold id; 409 INSUFFICIENT_FUNDS when the spendable soft balance does not cover it. */
export async function placeHold(core: EconomyCore, input: HoldInput): Promise<OperationOutcome> {
  const outcome = await core.runner.run({
    id: `hold:${input.holdId}`,
    kind: 'hold',
    ref: `${input.purpose}:${input.holdId}`,
    request: { account: input.account, amount: input.amount, purpose: input.purpose },
    legs: [
      {
        account: input.account,
        currency: 'soft',
        delta: -input.amount,
        kind: 'hold',
        floor: 'available',
        hold: { id: input.holdId, action: 'place', expiresAt: input.expiresAt },
      },
    ],
  });
  if (!outcome.replayed)
    core.events.record({
      type: 'economy.hold',
      actor: input.account,
      operation: outcome.operation._id,
      currency: 'soft',
      amount: input.amount,
      detail: { purpose: input.purpose },
    });
  return outcome;
}

/** Returns a hold's amount to the spendable balance (once; 409 HOLD_NOT_FOUND if it was consumed or released). */
export function releaseHold(core: EconomyCore, account: string, holdId: string): Promise<OperationOutcome> {
  return core.runner.run({
    id: `hold-release:${holdId}`,
    kind: 'hold_release',
    ref: holdId,
    request: { account, holdId },
    legs: [
      {
        account,
        currency: 'soft',
        delta: 0,
        kind: 'hold_release',
        floor: 'available',
        hold: { id: holdId, action: 'release' },
      },
    ],
  });
}

/** Spends a hold: its amount leaves the account's held balance for the burn account (kind `forge`). */
export function consumeHold(
  core: EconomyCore,
  account: string,
  holdId: string,
  amount: number,
): Promise<OperationOutcome> {
  return core.runner.run({
    id: `hold-consume:${holdId}`,
    kind: 'forge',
    ref: holdId,
    request: { account, holdId, amount },
    legs: [
      {
        account,
        currency: 'soft',
        delta: 0,
        kind: 'forge',
        floor: 'available',
        hold: { id: holdId, action: 'consume' },
      },
      {
        account: systemAccount(SYSTEM_ACCOUNTS.burn, 'soft', `hold-consume:${holdId}`),
        currency: 'soft',
        delta: amount,
        kind: 'forge',
        floor: 'none',
      },
    ],
  });
}
