import type { PlayerSession } from './eventDelivery';
import type { CharacterField, CharacterSync } from './persistence';
import { addItem, countOf, removeItem } from './rules/inventory';

/** What taking items out of a live player for the platform did: taken, not enough of them, or not hosted here. */
export type LiveTake = 'taken' | 'short' | 'absent';

/**
 * Brings what the platform changed outside the world (items moved by the marketplace, coins moved by the economy)
 * into a hosted player's live state, so what the room shows and lets them use is what they own. Call it through
 * `afterSaves`, so no save of theirs interleaves.
 *
 * Coins: the account holds `balance` and the last save synced the live coins from `base`, so `balance − base` came
 * from outside. The live coins change by that much (not below zero: an account in debt shows 0) and the base moves
 * by exactly what the live coins changed, so the next save still posts only what the world earned or spent (and
 * writes the coins whatever they are then).
 */
export async function applyOutsideChanges(session: PlayerSession, sync: CharacterSync): Promise<void> {
  const { state } = session;
  const moves = await sync.unseenItems(state.userId);
  for (const { item, qty } of moves) {
    if (qty > 0) addItem(state, item, qty);
    else removeItem(state, item, Math.min(-qty, countOf(state, item)));
  }
  // The saved inventory already holds these moves: the next save must write the inventory whatever it is then.
  if (moves.length > 0) forgetSaved(session, 'inventory');
  const coins = await sync.coinView(state.userId);
  if (!coins) return;
  state.hard = coins.hard;
  const applied = Math.max(-state.soft, coins.balance - coins.base);
  if (applied === 0) return;
  // Live first (synchronously, so no action sees a half-applied change), then the base; undone if that fails.
  state.soft += applied;
  try {
    await sync.rebaseCoins(state.userId, coins.base, coins.base + applied);
  } catch (error) {
    state.soft = Math.max(0, state.soft - applied);
    throw error;
  }
  // The base moved under the saved coins: the next save must write them (and post what the world did since) even
  // when the live coins are back at the saved figure.
  forgetSaved(session, 'currencies');
}

/**
 * Marks a field of the session's last save as unknown (rooms/savedFields.ts), so the next save writes it: the
 * platform changed the saved character behind the room's back, and a save writes only the fields that differ from
 * the last one (rooms/saveBatch.ts). Without this, a live value that comes back to the last saved one (items
 * returned, coins spent after a grant) would not be written, and the store would keep the platform's figure.
 */
function forgetSaved(session: PlayerSession, field: CharacterField): void {
  session.saved?.delete(field);
}

/**
 * Takes `qty` of `item` out of a hosted player for the platform (marketplace escrow) as claim `claimId`: out of the
 * live state at once (so the player can no longer give, sell or use them), then out of the saved character. A
 * claim the saved character already carries (a retry) puts the live items back: they were taken before.
 */
export async function takeFromLivePlayer(
  session: PlayerSession,
  sync: CharacterSync,
  claimId: string,
  item: string,
  qty: number,
): Promise<LiveTake> {
  const { state } = session;
  if (countOf(state, item) < qty) return 'short';
  removeItem(state, item, qty);
  let takenNow = false;
  try {
    takenNow = await afterSaves(session, () => sync.takeLive(state.userId, claimId, item, qty));
  } finally {
    if (!takenNow) addItem(state, item, qty);
    // The saved inventory changed (or may have: a failed take is not known to have missed the store).
    forgetSaved(session, 'inventory');
  }
  return 'taken';
}

/** Runs `work` after the session's queued saves and before later ones; answers its result. */
export function afterSaves<T>(session: PlayerSession, work: () => Promise<T>): Promise<T> {
  const run = session.saving.catch(() => undefined).then(work);
  session.saving = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}
