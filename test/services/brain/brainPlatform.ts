import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import type { PlatformContext } from '../../../platform/platform';
import { createAuthService } from '../../../services/auth';
import { createBrainArea } from '../../../services/brain';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** The service token every brain test platform accepts. */
export const SERVICE_TOKEN = 'brain-test-service-token-0123456789';

/** A running platform with the identity and brain areas, its clock and the backoff waits it asked for. */
export interface BrainTestPlatform extends TestPlatform {
  clock: ManualClock;
  /** Backoff waits of the embedding retries, in ms; each also advances `clock`. */
  waits: number[];
  /** POST /brain/ingest with the service token. */
  ingest(documents: object[]): request.Test;
  /** POST /brain/search. */
  search(body: object): request.Test;
  /** GET /brain/stats body. */
  stats(): Promise<Record<string, unknown> & { total_chunks: number; total_documents: number }>;
  /** Waits until /brain/stats shows no vectors, graph or RAPTOR work pending (searchable first, enriched after). */
  enriched(): Promise<void>;
  /** The value of a series of GET /metrics (`<histogram>_count` for a histogram), 0 when absent. */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/**
 * Starts the real platform (embedded MongoDB and Qdrant, real Redis unless `REDIS_URL` is overridden to
 * empty) with the identity and brain areas composed as productParts.ts does. The cache keys get a unique
 * Redis prefix per platform (or the given one) so parallel test files never share a cache generation.
 */
export async function startBrainPlatform(env: Record<string, string> = {}): Promise<BrainTestPlatform> {
  const clock = new ManualClock();
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    clock.advance(ms);
  };
  const parts = async (context: PlatformContext) => {
    const auth = createAuthService(context);
    const brain = await createBrainArea(context, auth, { sleep });
    return {
      services: [auth.register, ...(brain.services ?? [])],
      close: async () => {
        await brain.close?.();
        await auth.close();
      },
    };
  };
  const settings = {
    REDIS_URL: 'redis://127.0.0.1:6379',
    BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
    BRAIN_CACHE_KEY_PREFIX: `test:brain:${randomUUID()}:`,
    ...env,
  };
  const platform = await startTestPlatform(settings, parts, clock);
  return {
    ...platform,
    stop: async () => {
      await platform.stop();
      if (settings.REDIS_URL) await deleteKeys(settings.REDIS_URL, settings.BRAIN_CACHE_KEY_PREFIX);
    },
    clock,
    waits,
    ingest: (documents) =>
      request(platform.url)
        .post('/brain/ingest')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({ documents }),
    search: (body) => request(platform.url).post('/brain/search').send(body),
    stats: async () => (await request(platform.url).get('/brain/stats').expect(200)).body,
    enriched: async () => {
      for (let tries = 0; tries < 600; tries++) {
        const { enrichment } = (await request(platform.url).get('/brain/stats').expect(200)).body as {
          enrichment: Record<string, { pending: number; state: string }>;
        };
        const busy = Object.values(enrichment).some(
          (e) => e.pending > 0 || ['running', 'building'].includes(e.state),
        );
        if (!busy) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('enrichment did not finish in 30 s');
    },
    metric: async (name, labels = {}) => {
      const text = (await request(platform.url).get('/metrics').expect(200)).text;
      return metricValue(text, name, labels);
    },
  };
}

/** The value of the first series `name` whose labels include `labels` in a Prometheus exposition, else 0. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[3]);
  }
  return 0;
}

/** Removes the cache entries and generation a test platform left in Redis. */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
