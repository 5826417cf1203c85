import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';
import type { CharacterRecord } from '../rooms/persistence';

/**
 * A player's character in the MUD world, one document per user (`userId`, the platform user id): where they
 * are, health, level, currencies, inventory, equipment, skills, quest progress, NPC relations and companion.
 * The shape is exactly `CharacterRecord` (rooms/persistence.ts); maps are keyed by `"area:id"` references,
 * equipment slots or skill names.
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
      enum: ['Always', 'On Demand', 'Subtle', 'Progressive', 'Silent'],
      required: true,
    },
  },
  { _id: false },
);

const characterSchema = new Schema<CharacterDocument>(
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
  },
  { versionKey: false, minimize: false },
);

/** The `characters` collection on `connection`. */
export const characterModel = (connection: Connection) => modelFor(connection, 'Character', characterSchema);
