import type { CompanionPresence, Disposition, EquipSlot } from './content/schemas';
import { type World } from './content/world';
import type { QuestProgress } from './systems/context';
import { BASE_HEALTH } from './systems/progression';

/**
 * A saved player character: everything the world remembers between sessions. The integration's mongoose
 * model stores exactly this shape (one document per `userId`).
 */
export interface CharacterRecord {
  userId: string;
  name: string;
  /** The room the character is in, `"area:id"`; its area decides which area room hosts the player. */
  roomRef: string;
  health: number;
  maxHealth: number;
  level: number;
  xp: number;
  currencies: { soft: number; hard: number };
  /** Item ref → count. */
  inventory: Record<string, number>;
  /** Slot → item ref. */
  equipment: Partial<Record<EquipSlot, string>>;
  /** Skill name → level (e.g. `crafting`). */
  skills: Record<string, number>;
  /** Quest ref → progress. */
  quests: Record<string, QuestProgress>;
  /** NPC ref → relation score (-10..10); the disposition is derived from it. */
  relations: Record<string, number>;
  companion: {
    ref: string;
    name: string;
    bond: number;
    bondPoints: number;
    presence: CompanionPresence;
  } | null;
  /** Rooms the character has visited (`"area:id"`), for the `map` command; absent on older records. */
  visited?: string[];
  /** Dialogue topics answered (`<npcRef>#<topic>`). */
  asked?: string[];
  /** A companion offered by a quest while another was bonded, waiting for `companion swap|decline`. */
  pendingCompanion?: string | null;
  /** The group the character travels with (`group invite/accept/leave`). */
  group?: string | null;
  /** Milliseconds since the epoch of the last save (from the injected clock). */
  updatedAt: number;
}

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
