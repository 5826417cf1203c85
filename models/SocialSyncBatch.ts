import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * One bot sync batch (`_id`: `<platform>:<bot_instance_id>:<seq>`), the idempotency record of the batch: the hash
 * of its body and, once applied, the answer every replay gets. A `pending` batch was interrupted and is applied
 * again (each event idempotently) when it is posted again.
 */
export interface SocialSyncBatchRecord {
  _id: string;
  platform: string;
  bot: string;
  seq: number;
  requestHash: string;
  state: 'pending' | 'done';
  result: Record<string, unknown> | null;
  createdAt: Date;
}

const socialSyncBatchSchema = new Schema<SocialSyncBatchRecord>(
  {
    _id: { type: String, required: true },
    platform: { type: String, required: true },
    bot: { type: String, required: true },
    seq: { type: Number, required: true },
    requestHash: { type: String, required: true },
    state: { type: String, enum: ['pending', 'done'], required: true },
    result: { type: Schema.Types.Mixed, default: null },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
socialSyncBatchSchema.index({ createdAt: -1 });

/** The `socialsyncbatches` collection on `connection`. */
export const socialSyncBatchModel = (connection: Connection) =>
  modelFor(connection, 'SocialSyncBatch', socialSyncBatchSchema);
