import type { Connection, Model } from 'mongoose';
import {
  characterModel,
  type CharacterDocument,
  type CharacterPlatformFields,
  type ItemClaimRecord,
} from '../../models/Character';
import { AppError } from '../../platform/errors';
import { MUD_ERRORS, mudError } from './errors';
import type { CharacterRecord } from '../../rooms/persistence';

type CharacterModel = Model<CharacterDocument & CharacterPlatformFields>;

/** Claims kept per character (the newest); far more than a room session can overlap. */
const KEPT_CLAIMS = 200;
const DUPLICATE_KEY = 11000;
/** Compare-and-set rounds on `claimSeq` before giving up. */
const MAX_ROUNDS = 50;

/** 409: the character does not hold the items a listing would take. Nothing changes. */
export class ItemNotInInventoryError extends AppError {
  constructor(item: string, qty: number) {
    const { status, title } = MUD_ERRORS.ITEM_NOT_IN_INVENTORY;
    super(status, 'ITEM_NOT_IN_INVENTORY', title, { detail: `The character does not hold ${qty} × ${item}` });
  }
}

/**
 * Moves items in and out of characters from outside the world (marketplace escrow, returns, deliveries), whether
 * the character is in a room or not. A claim changes the character document at once, in one conditional
 * single-document update that also appends the claim with the next `claimSeq` (idempotent per claim id). A room
 * holding the character from before keeps a stale inventory; the character store re-applies every claim newer than
 * the session's load to that session's saves (`applyToSave`), so the room never writes a taken item back or drops
 * a delivered one. A buyer who never played gets a placeholder document that only holds the items; the first save
 * of their new character adds them.
 */
export class CharacterItems {
  private readonly characters: CharacterModel;

  constructor(connection: Connection) {
    this.characters = characterModel(connection) as CharacterModel;
  }

  /**
   * Takes `qty` of `item` out of the saved character (ItemNotInInventoryError when it holds fewer). False when the
   * claim was made before (nothing taken now).
   */
  take(userId: string, claimId: string, item: string, qty: number): Promise<boolean> {
    return this.claim(userId, { id: claimId, item, qty: -qty });
  }

  /** Puts `qty` of `item` into the saved character (a placeholder for a user who never played); false on a repeat. */
  give(userId: string, claimId: string, item: string, qty: number): Promise<boolean> {
    return this.claim(userId, { id: claimId, item, qty });
  }

  /** How many of `item` the character's document holds. */
  async holding(userId: string, item: string): Promise<number> {
    const doc = await this.characters.findOne({ userId }, { inventory: 1 }).lean();
    return (doc?.inventory as Record<string, number> | undefined)?.[item] ?? 0;
  }

  private async claim(userId: string, claim: Omit<ItemClaimRecord, 'seq'>): Promise<boolean> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const doc = await this.characters
        .findOne({ userId }, { inventory: 1, claimSeq: 1, itemClaims: 1 })
        .lean();
      if (doc?.itemClaims?.some((held) => held.id === claim.id)) return false;
      const held = (doc?.inventory as Record<string, number> | undefined)?.[claim.item] ?? 0;
      if (held + claim.qty < 0) throw new ItemNotInInventoryError(claim.item, -claim.qty);
      const seq = (doc?.claimSeq ?? 0) + 1;
      const next = held + claim.qty;
      const inventory = next === 0 ? { $unset: { [`inventory.${claim.item}`]: 1 } } : {};
      const result = await this.characters
        .updateOne(
          doc ? { userId, claimSeq: doc.claimSeq ?? { $exists: false } } : { userId },
          {
            ...(next === 0 ? {} : { $set: { [`inventory.${claim.item}`]: next } }),
            ...inventory,
            $inc: { claimSeq: 1 },
            $push: { itemClaims: { $each: [{ ...claim, seq }], $slice: -KEPT_CLAIMS } },
          },
          { upsert: !doc },
        )
        .catch((error: { code?: number }) => {
          // Two first claims for a user who never played raced on the unique userId: read and try again.
          if (error.code === DUPLICATE_KEY) return { modifiedCount: 0, upsertedCount: 0 };
          throw error;
        });
      if (result.modifiedCount + result.upsertedCount === 1) return true;
    }
    throw mudError('INVENTORY_BUSY', `The inventory of ${userId} is changing too fast; retry`);
  }
}

/** The claims of `doc` a room session that looked at claims up to `seenSeq` (plus `seenIds`) has not shown. */
export function unseenClaims(
  doc: CharacterPlatformFields | null,
  seenSeq: number,
  seenIds: ReadonlySet<string>,
): ItemClaimRecord[] {
  return (doc?.itemClaims ?? []).filter((claim) => claim.seq > seenSeq && !seenIds.has(claim.id));
}

/**
 * The record a room session saves, with the claims it has not shown applied to it (so a stale session never writes
 * a taken item back or drops a delivered one).
 */
export function applyClaims(record: CharacterRecord, claims: ItemClaimRecord[]): CharacterRecord {
  if (claims.length === 0) return record;
  const inventory = { ...record.inventory };
  for (const claim of claims) {
    const next = Math.max(0, (inventory[claim.item] ?? 0) + claim.qty);
    if (next === 0) delete inventory[claim.item];
    else inventory[claim.item] = next;
  }
  return { ...record, inventory };
}
