import type { Redis } from 'ioredis';
import type { Clock } from '../clock';

/**
 * Short-lived values read at most once (OAuth state, pending confirmations): `take` returns the value and removes
 * it atomically, so a value cannot be used twice even by concurrent requests.
 */
export interface EphemeralStore<T> {
  put(key: string, value: T, ttlSeconds: number): Promise<void>;
  take(key: string): Promise<T | undefined>;
}

/** In Redis (shared by all processes), JSON-encoded, with GETDEL for the one-time read. */
export class RedisEphemeralStore<T> implements EphemeralStore<T> {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async put(key: string, value: T, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify(value), 'EX', ttlSeconds);
  }

  async take(key: string): Promise<T | undefined> {
    const raw = await this.redis.getdel(this.prefix + key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }
}

/** In process memory, for a single process without Redis. */
export class MemoryEphemeralStore<T> implements EphemeralStore<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  async put(key: string, value: T, ttlSeconds: number): Promise<void> {
    const now = this.clock.now();
    for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
    this.entries.set(key, { value, expiresAt: now + ttlSeconds * 1000 });
  }

  async take(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry && entry.expiresAt > this.clock.now() ? entry.value : undefined;
  }
}
