import type { CharacterField, CharacterRecord } from '../models/Character';
import type { Disposition } from './content/schemas';
import { type World } from './content/world';
import { BASE_HEALTH } from './rules/progression';

/** A saved player character; the record type lives with its model so the models never import the rooms. */
export type { CharacterField, CharacterRecord };

/**
 * Where characters live. `load` answers null for a user who has never played, else everything `save` wrote (defaults
 * for fields an older record lacks), except a `group` that is no longer one: it is kept when the character formed it
 * (its id is their userId) or another saved character holds it, and is null otherwise (services/mud/README.md, "What a
 * reload keeps"). `save` must be durable when it resolves: rooms await it before acknowledging an action, so a
 * restart loses no acknowledged progress.
 */
export interface PlayerStore {
  load(userId: string): Promise<CharacterRecord | null>;
  save(record: CharacterRecord): Promise<void>;
  /**
   * Saves several characters (one record per user) in as few round trips as the store can, with `save`'s promise for
   * each: durable when it resolves. Answers, in order, undefined for a record saved and the error for one that was
   * not. Absent where the store has no cheaper way than one `save` each (rooms/saveBatch.ts then calls `save`).
   *
   * `changed[i]`, when given, names the only top-level fields of `records[i]` that differ from what this store last
   * durably saved for that character (never empty: an unchanged character is not passed). The store may then write
   * those fields and `updatedAt` alone, and must leave the others as they are. Undefined (or no `changed`): the
   * whole record, as `save`. Callers keep the list honest (rooms/savedFields.ts): a field changed in the store
   * behind the room's back is listed, except items moved by the platform's claims, which the store re-applies to
   * any inventory it writes (as `save` does).
   */
  saveMany?(
    records: CharacterRecord[],
    changed?: ReadonlyArray<readonly CharacterField[] | undefined>,
  ): Promise<Array<Error | undefined>>;
  /** Changes made to characters outside the world (marketplace, economy); absent where nothing else changes them. */
  sync?: CharacterSync;
}

/**
 * What the platform changed in a character while a room hosts it, so the room's live player shows it at once (the
 * room is the authority over an online player: an item it still shows could otherwise be given away twice).
 * Every call is made from the player's save queue, so no save of theirs runs in between.
 */
export interface CharacterSync {
  /** Item moves made outside since this session last looked (oldest first); they count as shown afterwards. */
  unseenItems(userId: string): Promise<Array<{ item: string; qty: number }>>;
  /**
   * Takes items the room has already removed from the live player out of the saved character too, as claim
   * `claimId`; the session's saves do not apply that claim again. Answers false when the claim was made before (a
   * retry: nothing taken now). Throws when the saved character does not hold them.
   */
  takeLive(userId: string, claimId: string, item: string, qty: number): Promise<boolean>;
  /**
   * The soft coins the account has now and the `base` the last save synced from, and the hard balance; null without
   * an economy or for a character never saved.
   */
  coinView(userId: string): Promise<{ balance: number; base: number; hard: number } | null>;
  /** Moves the sync base (the live coins changed by `newBase − base` without the world earning or spending). */
  rebaseCoins(userId: string, base: number, newBase: number): Promise<void>;
}

/** Who a session token belongs to. */
export interface PlayerIdentity {
  userId: string;
  name: string;
}

/** Verifies a session token; null when it is missing, unknown or expired. Used by the area room's `onAuth`. */
export type Authenticate = (token: string) => Promise<PlayerIdentity | null>;

/** What a character holds when an older record lacks the fields added after the first release (fresh arrays). */
export function optionalDefaults(): Required<Pick<CharacterRecord, OptionalField>> {
  return { visited: [], asked: [], pendingCompanion: null, group: null };
}

/** The record's fields older saves may lack. */
type OptionalField = 'visited' | 'asked' | 'pendingCompanion' | 'group';

/** A `PlayerStore` in memory (tests, benches, single-process dev). Stores deep copies. */
export class InMemoryPlayerStore implements PlayerStore {
  private readonly records = new Map<string, CharacterRecord>();
  /** Number of completed saves (tests use it to check write-through). */
  saves = 0;

  async load(userId: string): Promise<CharacterRecord | null> {
    const saved = this.records.get(userId);
    if (!saved) return null;
    const record = { ...optionalDefaults(), ...structuredClone(saved) };
    const { group } = record;
    const held = (other: CharacterRecord) => other.userId !== userId && other.group === group;
    if (group && group !== userId && ![...this.records.values()].some(held)) record.group = null;
    return record;
  }

  async save(record: CharacterRecord): Promise<void> {
    this.records.set(record.userId, structuredClone(record));
    this.saves += 1;
  }
}

/** A fresh level-1 character at the world's start room. */
export function newCharacter(world: World, identity: PlayerIdentity, now: number): CharacterRecord {
  return {
    userId: identity.userId,
    name: identity.name,
    roomRef: world.startRoom,
    health: BASE_HEALTH,
    maxHealth: BASE_HEALTH,
    level: 1,
    xp: 0,
    currencies: { soft: 10, hard: 0 },
    inventory: {},
    equipment: {},
    skills: {},
    quests: {},
    relations: {},
    companion: null,
    ...optionalDefaults(),
    updatedAt: now,
  };
}

/** Dispositions are derived, never stored; re-exported for the record's readers. */
export type { Disposition };
