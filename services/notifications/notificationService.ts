import { randomUUID } from 'node:crypto';
import { Types, type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { notificationModel, type NotificationRecord } from '../../models/Notification';
import type { Clock } from '../../platform/clock';
import type { DeliveryHub } from './deliveryHub';
import { KIND_PATTERN, isNoisy } from './notificationKinds';
import { presentNotification } from './presenters';
import type { MarkReadResult, NotificationListQuery, NotificationPage } from './schemas';

/**
 * The port every area publishes through (the shape issues 20 and 21 declare as their optional `notify` option):
 * fire and forget; failures are logged, never thrown into the publisher.
 */
export type Notify = (userId: string, kind: string, payload: Record<string, unknown>) => void;

/** One notification to publish. */
export interface PublishInput {
  userId: string;
  kind: string;
  payload: Record<string, unknown>;
  /** Idempotency key: publishing the same key for the same user again stores and delivers nothing new. */
  key?: string;
}

/** Largest payload accepted, bytes of JSON. */
const MAX_PAYLOAD_BYTES = 4096;
const HOUR_MS = 3_600_000;

/**
 * The internal notification service: stores each notification (MongoDB, `notifications`), then delivers it live
 * to the user's open sockets (`DeliveryHub`). Delivery is at-least-once: a socket that was closed gets nothing
 * live, and the client lists what it missed (`list`), deduping on ids. Noisy kinds are capped per user and hour.
 */
export class NotificationService {
  private readonly model;
  /** How many notifications of noisy kinds the cap dropped (for the README's figures and tests). */
  suppressed = 0;

  constructor(
    mongo: Connection,
    private readonly hub: DeliveryHub,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly noisyPerHour: number,
  ) {
    this.model = notificationModel(mongo);
  }

  /** The publishers' port: `notify(userId, kind, payload)`, fire and forget. */
  readonly notify: Notify = (userId, kind, payload) => {
    this.publish({ userId, kind, payload }).catch((err: unknown) =>
      this.logger.warn({ err, userId, kind }, 'notification not published'),
    );
  };

  /**
   * Stores and delivers one notification. Answers null when nothing new was stored: the key was published before,
   * or the user reached the hourly cap of this noisy kind. Throws on a malformed kind, user id or payload.
   */
  async publish(input: PublishInput): Promise<NotificationRecord | null> {
    if (!KIND_PATTERN.test(input.kind) || input.kind.length > 64) {
      throw new Error(`notification kind "${input.kind}" is not a dotted lowercase name`);
    }
    if (!input.userId || input.userId.length > 64) throw new Error('notification needs a user id');
    if (Buffer.byteLength(JSON.stringify(input.payload)) > MAX_PAYLOAD_BYTES) {
      throw new Error(`notification payload over ${MAX_PAYLOAD_BYTES} bytes`);
    }
    const now = new Date(this.clock.now());
    if (isNoisy(input.kind) && (await this.overCap(input.userId, input.kind, now))) {
      this.suppressed += 1;
      this.logger.debug({ userId: input.userId, kind: input.kind }, 'noisy notification capped');
      return null;
    }
    const record: NotificationRecord = {
      _id: new Types.ObjectId(),
      userId: input.userId,
      kind: input.kind,
      payload: input.payload,
      key: input.key ?? randomUUID(),
      createdAt: now,
      readAt: null,
    };
    try {
      await this.model.collection.insertOne(record);
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return null;
      throw error;
    }
    this.hub.deliver(input.userId, presentNotification(record));
    return record;
  }

  /** A page of the user's notifications, newest first, after `cursor` (the previous page's `next_cursor`). */
  async list(userId: string, query: NotificationListQuery): Promise<NotificationPage> {
    const filter: Record<string, unknown> = { userId };
    if (query.cursor) filter._id = { $lt: new Types.ObjectId(query.cursor) };
    if (query.unread) filter.readAt = null;
    const found = await this.model
      .find(filter)
      .sort({ _id: -1 })
      .limit(query.limit + 1)
      .lean<NotificationRecord[]>();
    const page = found.slice(0, query.limit);
    return {
      notifications: page.map(presentNotification),
      next_cursor: found.length > query.limit ? page[page.length - 1]._id.toHexString() : null,
      unread_count: await this.unreadCount(userId),
    };
  }

  /** The user's notifications newer than `after`, oldest first (a socket's replay after a reconnect). */
  async since(userId: string, after: string, limit = 100): Promise<NotificationRecord[]> {
    return this.model
      .find({ userId, _id: { $gt: new Types.ObjectId(after) } })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<NotificationRecord[]>();
  }

  /** Marks the user's own unread notifications among `ids` read; others' ids are ignored. */
  async markRead(userId: string, ids: string[]): Promise<MarkReadResult> {
    const result = await this.model.updateMany(
      { userId, _id: { $in: ids.map((id) => new Types.ObjectId(id)) }, readAt: null },
      { $set: { readAt: new Date(this.clock.now()) } },
    );
    return { updated: result.modifiedCount, unread_count: await this.unreadCount(userId) };
  }

  /** How many of the user's notifications are unread. */
  unreadCount(userId: string): Promise<number> {
    return this.model.countDocuments({ userId, readAt: null });
  }

  private async overCap(userId: string, kind: string, now: Date): Promise<boolean> {
    const since = new Date(now.getTime() - HOUR_MS);
    const recent = await this.model.countDocuments({ userId, kind, createdAt: { $gte: since } });
    return recent >= this.noisyPerHour;
  }
}
