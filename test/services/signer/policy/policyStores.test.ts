import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  InMemoryForgeCooldownStore,
  InMemoryRequestWindowStore,
  type ForgeCooldownStore,
  type RequestWindowStore,
} from '../../../../services/signer/policy/requestPolicy';
import {
  RedisForgeCooldownStore,
  RedisRequestWindowStore,
} from '../../../../services/signer/policy/redisPolicyStores';

let redis: Redis;

beforeAll(() => {
  redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: false, maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await redis.quit();
});

function uniquePrefix(): string {
  return `test:signer:${randomBytes(6).toString('hex')}:`;
}

const backends: [string, () => { windows: RequestWindowStore; cooldowns: ForgeCooldownStore }][] = [
  [
    'in memory',
    () => ({ windows: new InMemoryRequestWindowStore(), cooldowns: new InMemoryForgeCooldownStore() }),
  ],
  [
    'Redis',
    () => {
      const prefix = uniquePrefix();
      return {
        windows: new RedisRequestWindowStore(redis, `${prefix}requests:`),
        cooldowns: new RedisForgeCooldownStore(redis, `${prefix}cooldown:`),
      };
    },
  ],
];

const T0 = Date.UTC(2026, 0, 1);

describe.each(backends)('signer policy stores (%s)', (_name, build) => {
  it('admits `limit` requests per sliding window per key and tells when the oldest leaves it', async () => {
    const { windows } = build();
    for (let i = 0; i < 3; i += 1) {
      expect(await windows.tryAcquire('0xaa', T0 + i * 1000, 60_000, 3)).toEqual({
        allowed: true,
        retryAfterMs: 0,
      });
    }
    expect(await windows.tryAcquire('0xaa', T0 + 10_000, 60_000, 3)).toEqual({
      allowed: false,
      retryAfterMs: 50_000,
    });
    expect((await windows.tryAcquire('0xbb', T0 + 10_000, 60_000, 3)).allowed).toBe(true);
    // The first request left the window at T0 + 60 s: one slot is free again, and only one.
    expect((await windows.tryAcquire('0xaa', T0 + 60_000, 60_000, 3)).allowed).toBe(true);
    expect(await windows.tryAcquire('0xaa', T0 + 60_500, 60_000, 3)).toEqual({
      allowed: false,
      retryAfterMs: 500,
    });
  });

  it('counts two requests in the same millisecond as two', async () => {
    const { windows } = build();
    await windows.tryAcquire('0xcc', T0, 60_000, 2);
    await windows.tryAcquire('0xcc', T0, 60_000, 2);
    expect((await windows.tryAcquire('0xcc', T0, 60_000, 2)).allowed).toBe(false);
  });

  it('refuses a forge start inside the cooldown, with the time left, and admits it after', async () => {
    const { cooldowns } = build();
    expect(await cooldowns.tryBegin('0xaa', T0, 60_000)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(await cooldowns.tryBegin('0xaa', T0 + 15_000, 60_000)).toEqual({
      allowed: false,
      retryAfterMs: 45_000,
    });
    expect((await cooldowns.tryBegin('0xbb', T0 + 15_000, 60_000)).allowed).toBe(true);
    expect((await cooldowns.tryBegin('0xaa', T0 + 60_000, 60_000)).allowed).toBe(true);
  });

  it('cancels only the start it recorded', async () => {
    const { cooldowns } = build();
    await cooldowns.tryBegin('0xaa', T0, 60_000);
    await cooldowns.cancel('0xaa', T0 - 1);
    expect((await cooldowns.tryBegin('0xaa', T0 + 1, 60_000)).allowed).toBe(false);
    await cooldowns.cancel('0xaa', T0);
    expect((await cooldowns.tryBegin('0xaa', T0 + 2, 60_000)).allowed).toBe(true);
  });
});

describe('Redis policy stores across processes', () => {
  it('share one window and one cooldown between two clients of the same Redis', async () => {
    const prefix = uniquePrefix();
    const other = new Redis('redis://127.0.0.1:6379');
    try {
      const windowsA = new RedisRequestWindowStore(redis, `${prefix}requests:`);
      const windowsB = new RedisRequestWindowStore(other, `${prefix}requests:`);
      await windowsA.tryAcquire('0xaa', T0, 60_000, 2);
      await windowsB.tryAcquire('0xaa', T0 + 1, 60_000, 2);
      expect((await windowsA.tryAcquire('0xaa', T0 + 2, 60_000, 2)).allowed).toBe(false);
      const cooldownA = new RedisForgeCooldownStore(redis, `${prefix}cooldown:`);
      const cooldownB = new RedisForgeCooldownStore(other, `${prefix}cooldown:`);
      await cooldownA.tryBegin('0xaa', T0, 60_000);
      expect((await cooldownB.tryBegin('0xaa', T0 + 1, 60_000)).allowed).toBe(false);
    } finally {
      await other.quit();
    }
  });
});
