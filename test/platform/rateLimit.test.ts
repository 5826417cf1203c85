import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createLimiter } from '../../platform/http/rateLimit';

const redis = new Redis('redis://127.0.0.1:6379');

/** Limiters on the real Redis: each test uses its own key prefix and removes its keys. */
describe('limiter on Redis', () => {
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = `test:ratelimit:${randomUUID()}`;
    prefixes.push(prefix);
    return prefix;
  };
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  const sequence = async (hit: () => Promise<{ allowed: boolean }>, count: number) => {
    const allowed: boolean[] = [];
    for (let i = 0; i < count; i++) allowed.push((await hit()).allowed);
    return allowed;
  };

  it('refuses an over-limit key from memory for the rest of its window, without asking Redis', async () => {
    const keyPrefix = newPrefix();
    const limiter = createLimiter({
      redis,
      keyPrefix,
      points: 2,
      durationSeconds: 30,
      blockOverLimitInMemory: true,
    });
    expect(await sequence(() => limiter.hit('client'), 6)).toEqual([true, true, false, false, false, false]);
    // Two allowed and the first refusal reached Redis; the three after it were refused in memory.
    expect(await redis.get(`${keyPrefix}:client`)).toBe('3');
    const refused = await limiter.hit('client');
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThan(25);
    expect(refused.resetSeconds).toBeLessThanOrEqual(30);
    // Another process sharing Redis makes the same decision for the key, and other keys are unaffected.
    const other = createLimiter({
      redis,
      keyPrefix,
      points: 2,
      durationSeconds: 30,
      blockOverLimitInMemory: true,
    });
    expect((await other.hit('client')).allowed).toBe(false);
    expect((await limiter.hit('another client')).allowed).toBe(true);
  });

  it('counts every request in Redis without the in-memory block', async () => {
    const keyPrefix = newPrefix();
    const limiter = createLimiter({ redis, keyPrefix, points: 2, durationSeconds: 30 });
    expect(await sequence(() => limiter.hit('client'), 4)).toEqual([true, true, false, false]);
    expect(await redis.get(`${keyPrefix}:client`)).toBe('4');
    expect(await limiter.hit('client')).toMatchObject({ allowed: false, consumed: 5, remaining: 0 });
  });
});
