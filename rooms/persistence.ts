import type { CharacterRecord } from '../models/Character';
import type { Disposition } from './content/schemas';
import { type World } from './content/world';
import { BASE_HEALTH } from './systems/progression';

/** A saved player character; the record type lives with its model so the models never import the rooms. */
export type { CharacterRecord };

/**
 * Where characters live. `load` answers null for a user who has never played. `save` must be durable when
 * it resolves: rooms await it before acknowledging an action, so a restart loses no acknowledged progress.
 */
export interface PlayerStore {
  load(userId: string): Promise<CharacterRecord | null>;
  save(record: CharacterRecord): Promise<void>;
}

/** Who a session token belongs to. */
export interface PlayerIdentity {
  userId: string;
  name: string;
}

/** Verifies a session token; null when it is missing, unknown or expired. Used by the area room's `onAuth`. */
export type Authenticate = (token: string) => Promise<PlayerIdentity | null>;

/** A `PlayerStore` in memory (tests, benches, single-process dev). Stores deep copies. */
export class InMemoryPlayerStore implements PlayerStore {
  private readonly records = new Map<string, CharacterRecord>();
  /** Number of completed saves (tests use it to check write-through). */
  saves = 0;

  async load(userId: string): Promise<CharacterRecord | null> {
    const record = this.records.get(userId);
    return record ? structuredClone(record) : null;
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
    visited: [],
    asked: [],
    pendingCompanion: null,
    group: null,
    updatedAt: now,
  };
}

/** Dispositions are derived, never stored; re-exported for the record's readers. */
export type { Disposition };
