import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * What the platform has received from one bot instance (`_id`: `<platform>:<bot_instance_id>`): the highest
 * sequence number seen and the ranges below it still missing (gaps), so a sync answer can report them.
 */
export interface SocialBotCursorRecord {
  _id: string;
  highest: number;
  /** Inclusive [from, to] ranges of sequence numbers not received yet, oldest first (at most 100 kept). */
  missing: [number, number][];
  version: number;
  updatedAt: Date;
}

const socialBotCursorSchema = new Schema<SocialBotCursorRecord>(
  {
    _id: { type: String, required: true },
    highest: { type: Number, required: true },
    missing: { type: Schema.Types.Mixed, default: [] },
    version: { type: Number, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

/** The `socialbotcursors` collection on `connection`. */
export const socialBotCursorModel = (connection: Connection) =>
  modelFor(connection, 'SocialBotCursor', socialBotCursorSchema);
