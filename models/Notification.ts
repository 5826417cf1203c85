import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * One notification for one user (services/notifications): what happened (`kind`, a small JSON `payload`), when,
 * and whether its owner has read it. The `_id` is an ObjectId, so ids sort by creation and serve as list cursors;
 * `key` makes publishing idempotent (one notification per user and key).
 */
export interface NotificationRecord {
  _id: Types.ObjectId;
  userId: string;
  kind: string;
  payload: Record<string, unknown>;
  /** Publisher's idempotency key; a random one when the publisher gave none. */
  key: string;
  createdAt: Date;
  readAt: Date | null;
}

const notificationSchema = new Schema<NotificationRecord>(
  {
    userId: { type: String, required: true },
    kind: { type: String, required: true },
    payload: { type: Schema.Types.Mixed, required: true, default: {} },
    key: { type: String, required: true },
    createdAt: { type: Date, required: true },
    readAt: { type: Date, default: null },
  },
  { versionKey: false, minimize: false },
);
notificationSchema.index({ userId: 1, key: 1 }, { unique: true });
notificationSchema.index({ userId: 1, _id: -1 });
notificationSchema.index({ userId: 1, kind: 1, createdAt: -1 });

/** The `notifications` collection on `connection`. */
export const notificationModel = (connection: Connection) =>
  modelFor(connection, 'Notification', notificationSchema);
