import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ForgeCooldownStore, RequestWindowStore } from './requestPolicy';

/**
 * Redis-backed request windows and forge cooldowns, so every API process enforces one shared limit per address.
 * Each operation is one Lua script (atomic in Redis). Times are the caller's clock (`now` in ms), not Redis's, so
 * the limits follow the injectable clock; Redis expiry only removes keys nobody needs any more.
 */

// Sliding-window log in a sorted set scored by request time: drop what left the window, then admit if there is room.
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 0`;

// Last start time per forger: refuse while it is younger than the cooldown, otherwise record this start.
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local cooldown = tonumber(ARGV[2])
local last = redis.call('GET', KEYS[1])
if last and now - tonumber(last) < cooldown then
  return tonumber(last) + cooldown - now
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', cooldown)
return 0`;

// Compare-and-delete: undo only the start this caller recorded.
const CANCEL_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** Sliding-window request counts in Redis, under `<prefix><key>` (a sorted set of request times). */
export class RedisRequestWindowStore implements RequestWindowStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async tryAcquire(key: string, now: number, windowMs: number, limit: number) {
    // A random member: two requests in the same millisecond are two entries.
    const member = `${now}:${randomBytes(6).toString('hex')}`;
    const retryAfterMs = Number(
      await this.redis.eval(ACQUIRE_SCRIPT, 1, this.prefix + key, now, windowMs, limit, member),
    );
    return { allowed: retryAfterMs === 0, retryAfterMs };
  }
}

/** Forge cooldowns in Redis, under `<prefix><forger>` (the time of the last start, expiring with the cooldown). */
export class RedisForgeCooldownStore implements ForgeCooldownStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async tryBegin(forger: string, now: number, cooldownMs: number) {
    const retryAfterMs = Number(
      await this.redis.eval(BEGIN_SCRIPT, 1, this.prefix + forger, now, cooldownMs),
    );
    return { allowed: retryAfterMs === 0, retryAfterMs };
  }

  async cancel(forger: string, startedAt: number): Promise<void> {
    await this.redis.eval(CANCEL_SCRIPT, 1, this.prefix + forger, startedAt);
  }
}
