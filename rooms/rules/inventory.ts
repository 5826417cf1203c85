import type { PlayerState } from '../state/PlayerState';

/** Low-level inventory bookkeeping shared by items, crafting and quests. Callers check before they remove. */

/** How many of `ref` the player carries. */
export function countOf(player: PlayerState, ref: string): number {
  return player.inventory.get(ref) ?? 0;
}

/** Adds `qty` of `ref`. */
export function addItem(player: PlayerState, ref: string, qty: number): void {
  player.inventory.set(ref, countOf(player, ref) + qty);
}

/**
 * Removes `qty` of `ref` (throws a RangeError if the player has fewer: callers must check first, so this
 * only fires on a programming error). Unequips the item when the last one goes.
 */
export function removeItem(player: PlayerState, ref: string, qty: number): void {
  const have = countOf(player, ref);
  if (have < qty) throw new RangeError(`removeItem: ${player.userId} has ${have} of ${ref}, needs ${qty}`);
  if (have === qty) {
    player.inventory.delete(ref);
    player.equipment.forEach((equipped, slot) => {
      if (equipped === ref) player.equipment.delete(slot);
    });
  } else player.inventory.set(ref, have - qty);
}
