import type { Model } from 'mongoose';
import type { CharacterDocument, CharacterPlatformFields, CoinSyncRecord } from '../../models/Character';
import type { CharacterRecord } from '../../rooms/persistence';
import type { WorldPurse } from '../economy';

type CharacterModel = Model<CharacterDocument & CharacterPlatformFields>;

/** The coin fields of a saved character document (what `CharacterCoins.save` needs to know of it). */
export type SavedCoins = Partial<
  Pick<CharacterDocument & CharacterPlatformFields, 'coinSync' | 'currencies'>
>;

/** The projection that reads `SavedCoins`. */
export const SAVED_COINS = { coinSync: 1, currencies: 1 } as const;

/**
 * Keeps a character's coins and its owner's economy account one balance, at the character store's persistence
 * boundary (rooms are untouched). The account is the truth: a load shows its spendable balance and records it as
 * the sync `base`. A save posts `soft − base` (what the world paid or took since) as a `world` operation keyed by
 * user and save number, in three crash-safe steps:
 *
 * 1. write the character with `coinSync.pending = {seq, delta}` (one single-document write);
 * 2. post the operation (idempotent per key: a retry or a recovery posts it at most once);
 * 3. set `base` to the saved soft and clear `pending`.
 *
 * A crash after 1 leaves `pending`, which the next load or save posts first; before 1, nothing was acknowledged.
 * So no coin is created or lost by a crash. A character saved before the economy is migrated once (kind
 * `migration`, keyed by user).
 */
export class CharacterCoins {
  constructor(
    private readonly characters: CharacterModel,
    private readonly purse: WorldPurse,
  ) {}

  /** Completes a leftover sync, migrates once, and answers the account's balances for the loaded character. */
  async onLoad(userId: string, saved: { soft: number; hard: number }, sync?: CoinSyncRecord) {
    const current = await this.settle(userId, saved, sync);
    const balance = await this.purse.balance(userId);
    const soft = Math.max(0, balance.soft);
    const hard = Math.max(0, balance.hard);
    await this.characters.updateOne(
      { userId },
      { $set: { coinSync: { ...current, base: soft }, currencies: { soft, hard } } },
    );
    return { soft, hard };
  }

  /**
   * Saves `record` (with the platform fields `keep`, only where the document still matches `guard`) and posts the
   * coins the world made or took since the last sync. False when the guard no longer matched (nothing written).
   * `existing` is the saved document's `coinSync` and `currencies` (null when there is none), read by the caller
   * in the same read as its guard: one round trip less per save.
   */
  async save(
    record: CharacterRecord,
    guard: object,
    keep: object,
    existing: SavedCoins | null,
  ): Promise<boolean> {
    const sync = existing?.currencies
      ? await this.settle(record.userId, existing.currencies, existing.coinSync)
      : { base: 0, seq: 0, pending: null };
    const delta = record.currencies.soft - sync.base;
    const seq = delta === 0 ? sync.seq : sync.seq + 1;
    const coinSync = delta === 0 ? sync : { base: sync.base, seq, pending: { seq, delta } };
    // Through the driver: the record is complete and typed, and mongoose's casting of the whole document (a
    // hydrated model per save) was the largest single cost of a durable move.
    const written = await this.characters.collection.replaceOne(
      { ...guard, userId: record.userId },
      { ...record, ...keep, coinSync },
      { upsert: !existing, ignoreUndefined: true },
    );
    if (written.matchedCount + written.upsertedCount === 0) return false;
    if (delta === 0) return true;
    await this.purse.post(record.userId, seq, delta);
    await this.characters.updateOne(
      { userId: record.userId },
      { $set: { coinSync: { base: record.currencies.soft, seq, pending: null } } },
    );
    return true;
  }

  /**
   * The account's spendable balances now and the soft `base` the last save synced from (a leftover pending save is
   * posted first), for a room showing outside changes live. Null for a character not saved yet.
   */
  async view(userId: string): Promise<{ balance: number; base: number; hard: number } | null> {
    const doc = await this.characters.findOne({ userId }, { coinSync: 1, currencies: 1 }).lean();
    if (!doc?.currencies) return null;
    const sync = await this.settle(userId, doc.currencies, doc.coinSync);
    const balance = await this.purse.balance(userId);
    return { balance: balance.soft, base: sync.base, hard: Math.max(0, balance.hard) };
  }

  /** Moves the sync base from `base` to `newBase` (the room showed an outside change); throws if it moved meanwhile. */
  async rebase(userId: string, base: number, newBase: number): Promise<void> {
    const moved = await this.characters.updateOne(
      { userId, 'coinSync.base': base, 'coinSync.pending': null },
      { $set: { 'coinSync.base': newBase } },
    );
    if (moved.matchedCount !== 1) throw new Error(`the coin sync of ${userId} changed while it was rebased`);
  }

  /** Migrates every character saved before the economy (idempotent; run at start-up). Answers how many. */
  async migrateAll(): Promise<number> {
    const legacy = await this.characters
      .find({ coinSync: { $exists: false }, name: { $exists: true } }, { userId: 1, currencies: 1 })
      .lean();
    for (const character of legacy) await this.settle(character.userId, character.currencies, undefined);
    return legacy.length;
  }

  /** The sync state after posting a leftover `pending` save, or after migrating a pre-economy character. */
  private async settle(
    userId: string,
    coins: { soft: number; hard: number },
    sync: CoinSyncRecord | undefined,
  ): Promise<CoinSyncRecord> {
    if (!sync) {
      await this.purse.migrate(userId, coins);
      const migrated = { base: coins.soft, seq: 0, pending: null };
      await this.characters.updateOne(
        { userId, coinSync: { $exists: false } },
        { $set: { coinSync: migrated } },
      );
      return migrated;
    }
    if (!sync.pending) return sync;
    await this.purse.post(userId, sync.pending.seq, sync.pending.delta);
    const settled = { base: sync.base + sync.pending.delta, seq: sync.pending.seq, pending: null };
    await this.characters.updateOne({ userId }, { $set: { coinSync: settled } });
    return settled;
  }
}
