import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * What the quests brain learns of one player and one quest (collection `questsignals`, `_id` `<userId>|<questRef>`):
 * when the player dismissed it as a recommendation, and when the brain first saw it active and completed (the
 * world records no start time, so time to complete is measured between these observations).
 */
export interface QuestSignalRecord {
  _id: string;
  userId: string;
  quest: string;
  dismissed_at: Date | null;
  first_active_at: Date | null;
  completed_at: Date | null;
}

const questSignalSchema = new Schema<QuestSignalRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    quest: { type: String, required: true },
    dismissed_at: { type: Date, default: null },
    first_active_at: { type: Date, default: null },
    completed_at: { type: Date, default: null },
  },
  { versionKey: false },
);
// One player's signals (recommendations); one quest's observations (world insights).
questSignalSchema.index({ userId: 1 });
questSignalSchema.index({ quest: 1 });

/** The `questsignals` collection on `connection`. */
export const questSignalModel = (connection: Connection) =>
  modelFor(connection, 'QuestSignal', questSignalSchema);
