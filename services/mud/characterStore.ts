import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { Types, type Connection } from 'mongoose';
import { characterModel } from '../../models/Character';
import { userModel } from '../../models/User';
import type { CharacterField, CharacterRecord, CharacterSync, PlayerStore } from '../../rooms/persistence';
import type { WorldPurse } from '../economy';
import { pickFields } from './characterFields';
import { CharacterItems, applyClaims, unseenClaims } from './characterItems';
import { CharacterCoins, SAVED_COINS, type SavedCoins } from './coinSync';
import { recordFromStored } from './storedCharacter';

/** Save rounds when outside item claims keep landing between the read and the write. */
const MAX_SAVE_ROUNDS = 20;
const NONE: ReadonlySet<string> = new Set();

/**
 * The world's `PlayerStore` on MongoDB: one `characters` document per user, replaced whole by `save` and, in the
 * rooms' group commits (`saveMany`), updated with only the fields that changed (each a single-document write, so a
 * save is atomic). Area rooms await `save` before acknowledging a state-changing
 * action, and MongoDB acknowledges only written data, so a restart loses no acknowledged progress.
 * With a `purse` (the economy), the coins are the soft currency of the user's economy account: see CharacterCoins.
 * Items moved from outside (marketplace escrow, deliveries; CharacterItems) are shown to the live player through
 * `sync` when a room hosts them, and until then re-applied to the saves of a room session that loaded the character
 * before them, so a stale room never undoes them.
 */
export class MongoPlayerStore implements PlayerStore {
  private readonly characters;
  private readonly users;
  /** The economy sync; undefined without a purse (coins then live on the character only). */
  readonly coins?: CharacterCoins;
  /** Per user: the item-claim sequence their current room session has shown (loaded or synced). */
  private readonly loadedClaims = new Map<string, number>();
  /** Per user: claims past that sequence the room made itself (taken from the live player first). */
  private readonly liveClaims = new Map<string, Set<string>>();
  private readonly items: CharacterItems;
  /** Outside changes for the rooms' live players (see rooms/persistence.ts CharacterSync). */
  readonly sync: CharacterSync;

  constructor(connection: Connection, purse?: WorldPurse) {
    this.characters = characterModel(connection);
    this.users = userModel(connection);
    this.items = new CharacterItems(connection);
    if (purse) this.coins = new CharacterCoins(this.characters, purse);
    this.sync = {
      unseenItems: (userId) => this.unseenItems(userId),
      takeLive: (userId, claimId, item, qty) => this.takeLive(userId, claimId, item, qty),
      coinView: async (userId) => (this.coins ? this.coins.view(userId) : null),
      rebaseCoins: async (userId, base, newBase) => this.coins?.rebase(userId, base, newBase),
    };
  }

  /** The user's display name, when they chose one. */
  private async displayName(userId: string): Promise<string | undefined> {
    if (!Types.ObjectId.isValid(userId)) return undefined;
    const user = await this.users.findById(userId, { displayName: 1 }).lean();
    return user?.displayName || undefined;
  }

  /**
   * The saved character (null for a user who never played): everything `save` wrote, with defaults for fields older
   * documents lack (see recordFromStored). A `group` is kept only while it is still a group (see groupHeld).
   */
  async load(userId: string): Promise<CharacterRecord | null> {
    const doc = await this.characters.findOne({ userId }, { _id: 0 }).lean();
    this.loadedClaims.set(userId, doc?.name ? (doc.claimSeq ?? 0) : 0);
    this.liveClaims.delete(userId);
    // A document without a name only holds items delivered to a user who never played.
    if (!doc?.name) return null;
    const currencies = this.coins
      ? await this.coins.onLoad(userId, doc.currencies, doc.coinSync)
      : { soft: doc.currencies.soft, hard: doc.currencies.hard };
    const record = recordFromStored(doc, (await this.displayName(userId)) ?? doc.name, currencies);
    if (record.group && !(await this.groupHeld(userId, record.group))) record.group = null;
    return record;
  }

  /**
   * Whether a saved group is still one: the character formed it (a group is named by its founder's id, and a new
   * group of theirs would get that name anyway), or another saved character still holds it. A member whose mates
   * all left is not left in a group of one that would silently take them back when its founder forms a new one.
   */
  private async groupHeld(userId: string, group: string): Promise<boolean> {
    if (group === userId) return true;
    const mate = await this.characters.findOne({ group, userId: { $ne: userId } }, { _id: 1 }).lean();
    return mate !== null;
  }

  async save(record: CharacterRecord): Promise<void> {
    for (let round = 0; round < MAX_SAVE_ROUNDS; round += 1) {
      // One read for the claims guard and, with the economy, the coin sync state.
      const doc = await this.characters
        .findOne(
          { userId: record.userId },
          { claimSeq: 1, itemClaims: 1, ...(this.coins ? SAVED_COINS : {}) },
        )
        .lean();
      const seen = this.loadedClaims.get(record.userId) ?? doc?.claimSeq ?? 0;
      const toWrite = applyClaims(
        record,
        unseenClaims(doc, seen, this.liveClaims.get(record.userId) ?? NONE),
      );
      const guard = doc ? { claimSeq: doc.claimSeq ?? { $exists: false } } : {};
      const keep = doc?.claimSeq ? { claimSeq: doc.claimSeq, itemClaims: doc.itemClaims ?? [] } : {};
      if (await this.write(toWrite, guard, keep, doc)) return;
    }
    throw new Error(`character ${record.userId} could not be saved: its items keep changing`);
  }

  /**
   * Saves a batch of characters in at most two round trips: one read of the guards it needs, one unordered bulk
   * write. With `changed` (rooms/saveBatch.ts: the fields that differ from the session's last durable save), a
   * character's write is a `$set` of those fields and `updatedAt` alone; a record without it is replaced whole.
   * - Only a write of the inventory or the coins needs the read: the inventory gets the outside item claims the
   *   session has not shown applied, under a guard on `claimSeq`; the coins need the economy's sync state. Any other
   *   change (a move, health, quests, …) is written without reading anything.
   * - A record that needs more than one write goes through `save` on its own: a character not saved yet, and, with
   *   the economy, one whose soft coins changed or whose coin sync is unsettled (CharacterCoins.save posts them in
   *   its three steps).
   * - When a write matches no document (a guard no longer matches: an item claim landed in between; or the
   *   document is gone), the batch's records are saved again one by one through `save`, whole (a replace is
   *   idempotent; `save` re-reads the claims and upserts).
   */
  async saveMany(
    records: CharacterRecord[],
    changed?: ReadonlyArray<readonly CharacterField[] | undefined>,
  ): Promise<Array<Error | undefined>> {
    const one = (record: CharacterRecord) =>
      this.save(record).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
    const fieldsOf = (index: number) => {
      const fields = changed?.[index];
      return fields && fields.length > 0 ? fields : undefined;
    };
    const needsRead = (index: number) => {
      const fields = fieldsOf(index);
      return !fields || fields.includes('inventory') || fields.includes('currencies');
    };
    const toRead = records.filter((_, index) => needsRead(index));
    if (records.length === 1 && toRead.length === 1 && !fieldsOf(0)) return [await one(records[0])];
    const docs =
      toRead.length > 0
        ? await this.characters
            .find(
              { userId: { $in: toRead.map((record) => record.userId) } },
              { userId: 1, claimSeq: 1, itemClaims: 1, ...(this.coins ? SAVED_COINS : {}) },
            )
            .lean()
        : [];
    const byUser = new Map(docs.map((doc) => [doc.userId, doc]));
    const alone: number[] = [];
    const bulk: number[] = [];
    const writes = records.flatMap((record, index): AnyBulkWriteOperation<Document>[] => {
      const fields = fieldsOf(index);
      if (!needsRead(index)) {
        bulk.push(index);
        const update = { $set: pickFields(record, fields!) };
        return [{ updateOne: { filter: { userId: record.userId }, update } }];
      }
      const doc = byUser.get(record.userId);
      const sync = doc?.coinSync;
      const coinsSettled = sync && doc.currencies && !sync.pending && record.currencies.soft === sync.base;
      if (!doc || (this.coins && !coinsSettled)) {
        alone.push(index);
        return [];
      }
      bulk.push(index);
      const seen = this.loadedClaims.get(record.userId) ?? doc.claimSeq ?? 0;
      const toWrite = applyClaims(
        record,
        unseenClaims(doc, seen, this.liveClaims.get(record.userId) ?? NONE),
      );
      const filter = { claimSeq: doc.claimSeq ?? { $exists: false }, userId: record.userId };
      if (fields) return [{ updateOne: { filter, update: { $set: pickFields(toWrite, fields) } } }];
      const keep = doc.claimSeq ? { claimSeq: doc.claimSeq, itemClaims: doc.itemClaims ?? [] } : {};
      const replacement = { ...toWrite, ...keep, ...(this.coins ? { coinSync: sync } : {}) };
      return [{ replaceOne: { filter, replacement } }];
    });
    const results: Array<Error | undefined> = new Array(records.length).fill(undefined);
    const [written] = await Promise.all([
      writes.length > 0
        ? this.characters.collection.bulkWrite(writes, { ordered: false, ignoreUndefined: true })
        : undefined,
      ...alone.map(async (index) => (results[index] = await one(records[index]))),
    ]);
    if (written && written.matchedCount < writes.length) {
      await Promise.all(bulk.map(async (index) => (results[index] = await one(records[index]))));
    }
    return results;
  }

  /** Claims the user's room session has not shown yet, as item moves; from now on they count as shown. */
  private async unseenItems(userId: string): Promise<Array<{ item: string; qty: number }>> {
    const doc = await this.characters.findOne({ userId }, { claimSeq: 1, itemClaims: 1 }).lean();
    const seen = this.loadedClaims.get(userId) ?? doc?.claimSeq ?? 0;
    const claims = unseenClaims(doc, seen, this.liveClaims.get(userId) ?? NONE);
    this.loadedClaims.set(userId, doc?.claimSeq ?? 0);
    this.liveClaims.delete(userId);
    return claims.map(({ item, qty }) => ({ item, qty }));
  }

  /** Takes items the room already took from the live player out of the saved character; false on a repeat. */
  private async takeLive(userId: string, claimId: string, item: string, qty: number): Promise<boolean> {
    const takenNow = await this.items.take(userId, claimId, item, qty);
    if (takenNow) {
      const live = this.liveClaims.get(userId) ?? new Set<string>();
      this.liveClaims.set(userId, live.add(claimId));
    }
    return takenNow;
  }

  private async write(
    record: CharacterRecord,
    guard: object,
    keep: object,
    saved: SavedCoins | null,
  ): Promise<boolean> {
    if (this.coins) return this.coins.save(record, guard, keep, saved);
    // Through the driver, as CharacterCoins.save does: the record is complete, nothing to cast.
    const written = await this.characters.collection.replaceOne(
      { ...guard, userId: record.userId },
      { ...record, ...keep },
      { upsert: !saved, ignoreUndefined: true },
    );
    return written.matchedCount + written.upsertedCount === 1;
  }
}
