import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { startQdrantEngine, type QdrantEngine } from '../../../embedded/qdrant';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const BREAKER = {
  source: 'docs/breaker.md',
  index: 'docs',
  text: '# Breaker\n\nThe circuit breaker opens after five failures.\n',
};
const QUERY = { query: 'Circuit Breaker', strategy: 'hybrid' };

async function cacheStats(platform: BrainTestPlatform) {
  return (await request(platform.url).get('/brain/cache/stats').expect(200)).body;
}

describe('brain search cache over HTTP: two processes on shared MongoDB, Qdrant and Redis', () => {
  let dir: string;
  let mongo: MongoEngine;
  let qdrant: QdrantEngine;
  let first: BrainTestPlatform;
  let second: BrainTestPlatform;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-brain-cache-'));
    [mongo, qdrant] = await Promise.all([
      startMongoEngine({ dir: path.join(dir, 'mongo') }),
      startQdrantEngine({ dir: path.join(dir, 'qdrant') }),
    ]);
    const shared = {
      MONGODB_URI: mongo.uri,
      QDRANT_URL: qdrant.url,
      BRAIN_CACHE_KEY_PREFIX: `test:brain:${randomUUID()}:`,
    };
    first = await startBrainPlatform(shared);
    second = await startBrainPlatform(shared);
    await first.ingest([BREAKER]).expect(200);
    // Vectors landing in the background move the generation too: the tests start once they have landed.
    await first.enriched();
  }, 90_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await Promise.all([mongo?.close(), qdrant?.close()]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves a repeated query from L1 whatever its case and spacing, and counts hits and misses', async () => {
    const l1Hits = await first.metric('brain_cache_hits_total', { level: 'L1' });
    const { generation } = await cacheStats(first);

    const miss = await first.search(QUERY).expect(200);
    const hit = await first.search({ ...QUERY, query: '  circuit   BREAKER ' }).expect(200);
    const otherLimit = await first.search({ ...QUERY, limit: 3 }).expect(200);

    expect([miss.body.cached, hit.body.cached, otherLimit.body.cached]).toEqual([false, true, false]);
    expect(hit.body.hits).toEqual(miss.body.hits);
    expect(await cacheStats(first)).toEqual({
      l1: { hits: 1, misses: 2, hit_rate: 1 / 3, entries: 2 },
      l2: { hits: 0, misses: 2, hit_rate: 0, enabled: true, errors: 0 },
      generation,
    });
    expect((await first.metric('brain_cache_hits_total', { level: 'L1' })) - l1Hits).toBe(1);
  });

  it('shares results with another process through L2, restored to the same hits', async () => {
    const own = await first.search(QUERY).expect(200);
    const shared = await second.search(QUERY).expect(200);

    expect(shared.body.cached).toBe(true);
    expect(shared.body.hits).toEqual(own.body.hits);
    expect((await cacheStats(second)).l2).toMatchObject({ hits: 1, misses: 0, hit_rate: 1 });
  });

  it('is invalidated everywhere by an ingest, and the other process catches up its fulltext index', async () => {
    const before = (await cacheStats(first)).generation;
    await first
      .ingest([
        { source: 'docs/relay.md', index: 'docs', text: '# Relay\n\nA relay is a circuit breaker cousin.\n' },
      ])
      .expect(200);
    await first.enriched();

    const afterIngest = await second.search({ ...QUERY, strategy: 'fulltext' }).expect(200);
    const again = await second.search(QUERY).expect(200);

    expect(afterIngest.body.cached).toBe(false);
    expect(afterIngest.body.hits.map((h: { source: string }) => h.source).sort()).toEqual([
      'docs/breaker.md',
      'docs/relay.md',
    ]);
    expect(again.body.cached).toBe(false);
    expect(again.body.hits).toHaveLength(2);
    const now = (await cacheStats(first)).generation;
    expect(now).toBeGreaterThan(before);
    expect((await cacheStats(second)).generation).toBe(now);
  });
});

describe('brain search cache without Redis', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform({ REDIS_URL: '' });
    await brain.ingest([BREAKER]).expect(200);
    await brain.enriched();
  });
  afterAll(() => brain?.stop());

  it('keeps L1 only, invalidated by ingests', async () => {
    const before = (await cacheStats(brain)).generation;
    await brain.search(QUERY).expect(200);
    const hit = await brain.search(QUERY).expect(200);
    await brain.ingest([{ ...BREAKER, source: 'docs/copy.md' }]).expect(200);
    await brain.enriched();
    const afterIngest = await brain.search(QUERY).expect(200);

    expect([hit.body.cached, afterIngest.body.cached]).toEqual([true, false]);
    expect(afterIngest.body.hits).toHaveLength(2);
    expect(await cacheStats(brain)).toEqual({
      l1: { hits: 1, misses: 2, hit_rate: 1 / 3, entries: 1 },
      l2: { hits: 0, misses: 0, hit_rate: 0, enabled: false, errors: 0 },
      generation: expect.any(Number),
    });
    expect((await cacheStats(brain)).generation).toBeGreaterThan(before);
  });
});
