import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * Where a chain scanner resumes: the first block its next run reads. One document per scanner, keyed by a name
 * that includes the chain and contracts it scans (e.g. `signer-usage:84532:<forge>:<seed>`), so pointing the
 * platform at new contracts starts a new cursor instead of reusing a stale one.
 */
export interface ChainCursorRecord {
  _id: string;
  nextBlock: number;
  updatedAt: Date;
}

const chainCursorSchema = new Schema<ChainCursorRecord>(
  {
    _id: { type: String, required: true },
    nextBlock: { type: Number, required: true, min: 0 },
  },
  { timestamps: { createdAt: false, updatedAt: true } },
);

export const chainCursorModel = (connection: Connection) =>
  modelFor(connection, 'ChainCursor', chainCursorSchema);
