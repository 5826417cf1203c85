import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { normaliseQuery, searchCacheKey } from '../../../ai/cache/cacheKey';
import { SearchCache } from '../../../ai/cache/searchCache';
import { buildHit } from '../factories';

const params = { query: 'Circuit  Breaker', strategy: 'hybrid', indexes: ['docs'], limit: 5 };

describe('searchCacheKey', () => {
  it('ignores case, spacing and index order but not the other parameters', () => {
    const key = searchCacheKey(params);

    expect(normaliseQuery('  Circuit \n BREAKER ')).toBe('circuit breaker');
    expect(searchCacheKey({ ...params, query: ' circuit breaker ' })).toBe(key);
    expect(searchCacheKey({ ...params, indexes: ['code', 'docs'] })).toBe(
      searchCacheKey({ ...params, indexes: ['docs', 'code', 'docs'] }),
    );
    expect(searchCacheKey({ ...params, limit: 6 })).not.toBe(key);
    expect(searchCacheKey({ ...params, strategy: 'fulltext' })).not.toBe(key);
  });
});

describe('SearchCache', () => {
  let redis: Redis;
  let keyPrefix: string;

  beforeAll(() => {
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  });

  beforeEach(() => {
    keyPrefix = `test:brain:${randomUUID()}:`;
  });

  afterEach(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  afterAll(() => redis.quit());

  it('misses at both levels, then hits L1 in the same process', async () => {
    const cache = new SearchCache({ redis, keyPrefix });
    const hits = [buildHit()];

    expect(await cache.get(params)).toBeUndefined();
    await cache.set(params, hits);

    expect(await cache.get({ ...params, query: 'circuit breaker' })).toEqual(hits);
    expect(cache.stats()).toEqual({
      l1: { hits: 1, misses: 1, hitRate: 0.5, entries: 1 },
      l2: { hits: 0, misses: 1, hitRate: 0, enabled: true, errors: 0 },
      generation: 0,
    });
  });

  it('serves another process from L2 with ids as strings, restored to hits', async () => {
    const writer = new SearchCache({ redis, keyPrefix });
    const reader = new SearchCache({ redis, keyPrefix });
    const objectIdLike = { toString: () => '65f0c0ffee' } as unknown as string;

    await writer.set(params, [buildHit({ documentId: objectIdLike })]);
    const restored = await reader.get(params);

    expect(restored).toEqual([buildHit({ documentId: '65f0c0ffee' })]);
    expect(reader.stats().l2).toEqual({ hits: 1, misses: 0, hitRate: 1, enabled: true, errors: 0 });
    await reader.get(params);
    expect(reader.stats().l1.hits).toBe(1);
  });

  it('leaves chunk texts out of L2 when it can restore them, and misses on a chunk it does not know', async () => {
    const texts = new Map([['chunk-1', 'The brain answers questions.']]);
    const writer = new SearchCache({ redis, keyPrefix, chunkText: (id) => texts.get(id) });
    const reader = new SearchCache({ redis, keyPrefix, chunkText: (id) => texts.get(id) });
    await writer.set(params, [buildHit()]);

    const stored = JSON.parse((await redis.get(`${keyPrefix}q:${searchCacheKey(params)}`))!);
    expect(stored).toEqual({
      v: 1,
      generation: 0,
      hits: [expect.not.objectContaining({ text: expect.anything() })],
    });
    expect(await reader.get(params)).toEqual([buildHit()]);

    const forgetful = new SearchCache({ redis, keyPrefix, chunkText: () => undefined });
    expect(await forgetful.get(params)).toBeUndefined();
    expect(forgetful.stats().l2).toMatchObject({ hits: 0, misses: 1 });
    expect(await new SearchCache({ redis, keyPrefix }).get(params)).toBeUndefined();
  });

  it('reads the generation and, on an L1 miss, the L2 entry in one round trip', async () => {
    const calls: string[] = [];
    const counting = {
      get: (key: string) => (calls.push('get'), redis.get(key)),
      mget: (...keys: string[]) => (calls.push('mget'), redis.mget(...keys)),
      set: redis.set.bind(redis),
      incr: redis.incr.bind(redis),
    };
    const writer = new SearchCache({ redis, keyPrefix });
    const reader = new SearchCache({ redis: counting as never, keyPrefix });
    await writer.set(params, [buildHit()]);

    expect(await reader.get(params)).toEqual([buildHit()]);
    expect(calls).toEqual(['mget']);
    expect(await reader.get(params)).toEqual([buildHit()]);
    expect(calls).toEqual(['mget', 'get']);
  });

  it('keeps one L2 entry per search, stale after an invalidation until stored again', async () => {
    const cache = new SearchCache({ redis, keyPrefix });
    const other = new SearchCache({ redis, keyPrefix });
    await cache.set(params, [buildHit({ score: 1 })]);
    await cache.invalidate();

    expect(await other.get(params)).toBeUndefined();
    await other.set(params, [buildHit({ score: 2 })]);

    expect(await redis.keys(`${keyPrefix}q:*`)).toHaveLength(1);
    expect(await cache.get(params)).toEqual([buildHit({ score: 2 })]);
    expect(cache.stats()).toMatchObject({ l1: { hits: 0, misses: 1 }, l2: { hits: 1 }, generation: 1 });
  });

  it('invalidates every process through the shared generation', async () => {
    const ingester = new SearchCache({ redis, keyPrefix });
    const other = new SearchCache({ redis, keyPrefix });
    await other.set(params, [buildHit()]);
    expect(await other.get(params)).toHaveLength(1);

    await ingester.invalidate();

    expect(await other.get(params)).toBeUndefined();
    expect(other.stats().generation).toBe(1);
  });

  it('lets a process catch up once per foreign invalidation, never for its own, retrying a failed catch-up', async () => {
    let catchUps = 0;
    let failNext = false;
    const follower = new SearchCache({
      redis,
      keyPrefix,
      onForeignInvalidation: async () => {
        catchUps++;
        if (failNext) {
          failNext = false;
          throw new Error('MongoDB unreachable');
        }
      },
    });
    const ingester = new SearchCache({ redis, keyPrefix });
    await follower.get(params);
    const atStart = catchUps;

    await follower.invalidate();
    await follower.get(params);
    expect(catchUps).toBe(atStart);

    await ingester.invalidate();
    failNext = true;
    await follower.get(params);
    await follower.get(params);
    await follower.get(params);

    expect(catchUps).toBe(atStart + 2);
    expect(follower.stats().generation).toBe(2);
  });

  it('hands out frozen hits, so no caller can change what later lookups get', async () => {
    const cache = new SearchCache();
    await cache.set(params, [buildHit({ headingPath: ['Guide'] })]);

    const [hit] = (await cache.get(params))!;

    expect(() => {
      (hit as { score: number }).score = 99;
    }).toThrow(TypeError);
    expect(() => (hit.headingPath as string[]).push('Other')).toThrow(TypeError);
    expect(await cache.get(params)).toEqual([buildHit({ headingPath: ['Guide'] })]);
  });

  it('counts a corrupt L2 entry as a miss', async () => {
    const cache = new SearchCache({ redis, keyPrefix });
    await redis.set(
      `${keyPrefix}q:${searchCacheKey(params)}`,
      JSON.stringify({ v: 1, generation: 0, hits: [{ chunkId: 7 }] }),
    );

    expect(await cache.get(params)).toBeUndefined();
    expect(cache.stats().l2).toMatchObject({ hits: 0, misses: 1 });
  });

  it('works as L1 only without Redis, invalidating locally', async () => {
    const cache = new SearchCache();
    await cache.set(params, [buildHit()]);
    expect(await cache.get(params)).toHaveLength(1);

    await cache.invalidate();

    expect(await cache.get(params)).toBeUndefined();
    expect(cache.stats().l2).toEqual({ hits: 0, misses: 0, hitRate: 0, enabled: false, errors: 0 });
  });

  it('treats a Redis failure as an L2 miss instead of failing the search', async () => {
    const broken = {
      get: () => Promise.reject(new Error('ECONNREFUSED')),
      mget: () => Promise.reject(new Error('ECONNREFUSED')),
      set: () => Promise.reject(new Error('ECONNREFUSED')),
      incr: () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const cache = new SearchCache({ redis: broken as never, keyPrefix });

    await cache.set(params, [buildHit()]);
    expect(await cache.get(params)).toHaveLength(1);
    expect(await cache.get({ ...params, limit: 9 })).toBeUndefined();

    expect(cache.stats().l2).toEqual({ hits: 0, misses: 1, hitRate: 0, enabled: true, errors: 4 });
  });
});
