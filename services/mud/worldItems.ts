import type { Logger } from 'pino';
import type { ActionGateway } from '../../rooms/actionGateway';
import { CharacterItems, ItemNotInInventoryError } from './characterItems';

/**
 * Items and coins moved into and out of characters by the rest of the platform (the marketplace's escrow,
 * returns and deliveries; the economy's transfers, grants and sales), kept right whether the player is in the world
 * or not. While a room hosts the player, the room is the authority: items are taken out of the live player first
 * (so they can no longer be given, sold or used) and every change is shown there at once. While nobody plays the
 * character, the saved document is the truth and changes go there (CharacterItems, idempotent per claim id).
 */
export interface WorldItems {
  /** Takes `qty` of `item` from the user's character as claim `claimId` (409 ITEM_NOT_IN_INVENTORY when short). */
  take(userId: string, claimId: string, item: string, qty: number): Promise<void>;
  /** Gives `qty` of `item` to the user's character as claim `claimId` (a placeholder for a user who never played). */
  give(userId: string, claimId: string, item: string, qty: number): Promise<void>;
  /** How many of `item` the user's saved character holds. */
  holding(userId: string, item: string): Promise<number>;
  /** The user's items or coins changed outside the world: show it to them now if they are playing. */
  refresh(userId: string): Promise<void>;
}

/**
 * WorldItems over the saved characters and, when this process reaches the area rooms, the action gateway. A room
 * that cannot be reached while it hosts the player leaves the change on the saved character, which that room's
 * saves re-apply and its next refresh shows.
 */
export function worldItems(
  items: CharacterItems,
  gateway: ActionGateway | undefined,
  log: Logger,
): WorldItems {
  const refresh = async (userId: string) => {
    await gateway?.refresh(userId).catch((err: unknown) => {
      log.warn(
        { err, userId },
        'a room hosting the player did not take the outside change; it shows at the next save',
      );
    });
  };
  return {
    take: async (userId, claimId, item, qty) => {
      const live = gateway
        ? await gateway.takeItems(userId, claimId, item, qty).catch(() => 'absent')
        : 'absent';
      if (live === 'taken') return;
      if (live === 'short') throw new ItemNotInInventoryError(item, qty);
      await items.take(userId, claimId, item, qty);
      // The player may have joined while the claim was being made: show it to the room now.
      await refresh(userId);
    },
    give: async (userId, claimId, item, qty) => {
      await items.give(userId, claimId, item, qty);
      await refresh(userId);
    },
    holding: (userId, item) => items.holding(userId, item),
    refresh,
  };
}
