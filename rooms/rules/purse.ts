import type { PlayerState } from '../state/PlayerState';
import type { SimContext } from './context';
import { reject } from './errors';

/**
 * The one place the world changes a character's coins (the soft currency). Quests, merchants and death
 * all go through `credit`/`debit` with a reason, and every change is published on the world event bus as
 * `coins.changed`, so an economy account can later be plugged in behind this module without touching the
 * rules that pay or charge.
 */

/** Adds `amount` coins for `reason` (e.g. `quest:village:rat_problem`, `sell:village:bread`). */
export function credit(ctx: SimContext, player: PlayerState, amount: number, reason: string): void {
  if (amount <= 0) return;
  player.soft += amount;
  announce(ctx, player, amount, reason);
}

/**
 * Takes `amount` coins for `reason`; a 409 `NOT_ENOUGH_MONEY` (`message`, or a default) when the character
 * has fewer, changing nothing.
 */
export function debit(
  ctx: SimContext,
  player: PlayerState,
  amount: number,
  reason: string,
  message = `That costs ${amount} coins; you have ${player.soft}.`,
): void {
  if (amount <= 0) return;
  if (player.soft < amount) throw reject('NOT_ENOUGH_MONEY', message);
  player.soft -= amount;
  announce(ctx, player, -amount, reason);
}

/** Takes up to `amount` coins (a penalty never goes below zero); returns what was taken. */
export function forfeit(ctx: SimContext, player: PlayerState, amount: number, reason: string): number {
  const taken = Math.min(player.soft, Math.max(0, amount));
  if (taken > 0) debit(ctx, player, taken, reason);
  return taken;
}

function announce(ctx: SimContext, player: PlayerState, delta: number, reason: string): void {
  ctx.publish({ type: 'coins.changed', areaId: ctx.area.id, userId: player.userId, delta, reason });
}
