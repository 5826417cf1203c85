import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { NotificationView } from './schemas';

/** A live listener of one user's notifications (an open socket). */
export type NotificationListener = (notification: NotificationView) => void;

/** The Redis channel live deliveries cross processes on. */
const RELAY_CHANNEL = 'notifications:deliver';

/**
 * Live delivery: who is listening to which user's stream in this process. With Redis, a delivery is published on
 * one channel every process subscribes to, so a notification created in one process reaches a socket held by
 * another; without Redis it is delivered in-process only.
 */
export class DeliveryHub {
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private subscriber?: Redis;

  private constructor(
    private readonly logger: Logger,
    private readonly redis?: Redis,
  ) {}

  /** Opens the hub; with `redis`, subscribes to the relay channel on a duplicate connection. */
  static async open(logger: Logger, redis?: Redis): Promise<DeliveryHub> {
    const hub = new DeliveryHub(logger, redis);
    if (redis) {
      // The platform's connection fails commands fast while Redis is down (no offline queue); the subscription is
      // queued instead until the duplicate connects, and ioredis subscribes again after every reconnection, so a
      // Redis that is down at start or restarts later costs only cross-process delivery while it is away.
      const subscriber = redis.duplicate({ enableOfflineQueue: true });
      subscriber.on('message', (_channel: string, message: string) => hub.relayed(message));
      subscriber.on('error', (err: unknown) => logger.warn({ err }, 'notification relay connection failed'));
      void subscriber.subscribe(RELAY_CHANNEL).catch((err: unknown) => {
        logger.warn({ err }, 'notification relay subscription failed');
      });
      hub.subscriber = subscriber;
    }
    return hub;
  }

  /** Starts listening to `userId`'s stream; returns the unsubscribe. */
  listen(userId: string, listener: NotificationListener): () => void {
    let set = this.listeners.get(userId);
    if (!set) this.listeners.set(userId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  /** Delivers to every listener of `userId` in every process. */
  deliver(userId: string, notification: NotificationView): void {
    if (!this.redis) return this.deliverHere(userId, notification);
    this.redis.publish(RELAY_CHANNEL, JSON.stringify({ userId, notification })).catch((err: unknown) => {
      this.logger.warn({ err }, 'notification relay failed; delivering in this process only');
      this.deliverHere(userId, notification);
    });
  }

  /** How many sockets listen in this process. */
  get listening(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber?.quit().catch(() => undefined);
  }

  private relayed(message: string): void {
    const { userId, notification } = JSON.parse(message) as {
      userId: string;
      notification: NotificationView;
    };
    this.deliverHere(userId, notification);
  }

  private deliverHere(userId: string, notification: NotificationView): void {
    for (const listener of this.listeners.get(userId) ?? []) {
      try {
        listener(notification);
      } catch (err) {
        this.logger.warn({ err, userId }, 'notification listener failed');
      }
    }
  }
}
