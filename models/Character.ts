import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** Equipment slots a character fills (the world's item data names the same slots). */
export type EquipSlot = 'weapon' | 'head' | 'body' | 'hands' | 'feet' | 'trinket';

/** How present a companion is (the world's companion data uses the same names). */
export const COMPANION_PRESENCES = ['Always', 'On Demand', 'Subtle', 'Progressive', 'Silent'] as const;
/** One of COMPANION_PRESENCES. */
export type CompanionPresence = (typeof COMPANION_PRESENCES)[number];

/** A character's progress on one quest. */
export interface QuestProgress {
  status: 'active' | 'completed';
  counts: number[];
  /** When it was last completed (ms, the room's clock); daily quests open again a day later. */
  completedAt?: number;
}

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

/** A field of the record a save may write alone (every one but `updatedAt`, which every write sets). */
export type CharacterField = Exclude<keyof CharacterRecord, 'updatedAt'>;

/**
 * A player's character in the MUD world, one document per user (`userId`, the platform user id): where they
 * are, health, level, currencies, inventory, equipment, skills, quest progress, NPC relations and companion.
 * The shape is exactly `CharacterRecord`; maps are keyed by `"area:id"` references, equipment slots or skill
 * names.
 */
export type CharacterDocument = CharacterRecord;

const questProgressSchema = new Schema(
  {
    status: { type: String, enum: ['active', 'completed'], required: true },
    counts: { type: [Number], default: [] },
    completedAt: { type: Number },
  },
  { _id: false },
);

const companionSchema = new Schema(
  {
    ref: { type: String, required: true },
    name: { type: String, required: true },
    bond: { type: Number, min: 1, max: 5, required: true },
    bondPoints: { type: Number, min: 0, required: true },
    presence: {
      type: String,
      enum: COMPANION_PRESENCES,
      required: true,
    },
  },
  { _id: false },
);

/**
 * How far the character's soft coins are synced with the owner's economy account (services/mud/coinSync.ts):
 * `base` is the soft balance the world last synced at, `seq` the last world save posted, `pending` a save whose
 * ledger post may not have happened yet (completed on the next load or save). Absent on characters saved before the
 * economy existed, which are migrated once.
 */
export interface CoinSyncRecord {
  base: number;
  seq: number;
  pending: { seq: number; delta: number } | null;
}

const coinSyncSchema = new Schema<CoinSyncRecord>(
  {
    base: { type: Number, required: true },
    seq: { type: Number, required: true, min: 0 },
    pending: { type: new Schema({ seq: Number, delta: Number }, { _id: false }), default: null },
  },
  { _id: false },
);

/**
 * An item change made to a character from outside the world (marketplace escrow, returns, deliveries): applied to
 * the document at once, and with `seq` above what a room session loaded, re-applied to that session's saves, so a
 * room holding the character from before never writes the item back (services/mud/characterItems.ts).
 */
export interface ItemClaimRecord {
  id: string;
  item: string;
  /** Signed: negative takes items out, positive puts them in. */
  qty: number;
  seq: number;
}

const itemClaimSchema = new Schema<ItemClaimRecord>(
  {
    id: { type: String, required: true },
    item: { type: String, required: true },
    qty: { type: Number, required: true },
    seq: { type: Number, required: true },
  },
  { _id: false },
);

/** Fields the platform keeps on a character document beside the world's `CharacterRecord`. */
export interface CharacterPlatformFields {
  coinSync?: CoinSyncRecord;
  claimSeq?: number;
  itemClaims?: ItemClaimRecord[];
}

const characterSchema = new Schema<CharacterDocument & CharacterPlatformFields>(
  {
    userId: { type: String, required: true, unique: true },
    name: { type: String, required: true, maxlength: 64 },
    roomRef: { type: String, required: true },
    health: { type: Number, required: true, min: 0 },
    maxHealth: { type: Number, required: true, min: 1 },
    level: { type: Number, required: true, min: 1 },
    xp: { type: Number, required: true, min: 0 },
    currencies: {
      soft: { type: Number, required: true, min: 0 },
      hard: { type: Number, required: true, min: 0 },
    },
    inventory: { type: Map, of: Number, default: {} },
    equipment: { type: Map, of: String, default: {} },
    skills: { type: Map, of: Number, default: {} },
    quests: { type: Map, of: questProgressSchema, default: {} },
    relations: { type: Map, of: Number, default: {} },
    companion: { type: companionSchema, default: null },
    visited: { type: [String], default: [] },
    asked: { type: [String], default: [] },
    pendingCompanion: { type: String, default: null },
    group: { type: String, default: null },
    updatedAt: { type: Number, required: true },
    coinSync: { type: coinSyncSchema, required: false },
    claimSeq: { type: Number, required: false },
    itemClaims: { type: [itemClaimSchema], required: false },
  },
  { versionKey: false, minimize: false },
);

// A reloaded group member is kept in their group only while another character holds it (MongoPlayerStore.load).
characterSchema.index({ group: 1 });

/** The `characters` collection on `connection`. */
export const characterModel = (connection: Connection) => modelFor(connection, 'Character', characterSchema);
