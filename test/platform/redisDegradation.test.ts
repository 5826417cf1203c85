import { Redis } from 'ioredis';
import request from 'supertest';
import { productParts } from '../../productParts';
import { ownRedis, type OwnRedis } from '../helpers/redisServer';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/** Polls `/readyz` every 100 ms until its status is `wanted`; fails after `timeoutMs`. */
async function waitForReadiness(url: string, wanted: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(url).get('/readyz');
    if (res.body.status === wanted) return res;
    if (Date.now() > deadline) throw new Error(`/readyz did not turn ${wanted} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Redis stopped in the middle of a run (a redis-server of this test, not the shared one)', () => {
  let redis: OwnRedis;
  let server: TestPlatform;
  let token: string;

  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    server = await startTestPlatform({ REDIS_URL: redis.url, READINESS_TIMEOUT_MS: '500' }, productParts);
    const guest = await request(server.url).post('/auth/guest').send({}).expect(201);
    token = guest.body.token;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('is ready while Redis answers', async () => {
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
  });

  it('reports readiness as degraded, naming Redis and its fallback, once Redis stops', async () => {
    await redis.stop();
    const res = await request(server.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'degraded',
      degraded: ['redis'],
      checks: [
        {
          name: 'redis',
          status: 'down',
          latencyMs: expect.any(Number),
          error: 'unreachable',
          fallback: 'in-process rate limits and search cache (per process)',
        },
        { name: 'mongo', status: 'up', latencyMs: expect.any(Number) },
        { name: 'qdrant', status: 'up', latencyMs: expect.any(Number) },
      ],
    });
    const metrics = await request(server.url).get('/metrics');
    expect(metrics.text).toMatch(/^platform_readiness 0\.5$/m);
    expect(metrics.text).toMatch(/^platform_store_up\{store="redis"\} 0$/m);
  });

  it('keeps serving sign-in, sessions and search on the in-process fallbacks, without waiting for Redis', async () => {
    const started = Date.now();
    const guest = await request(server.url).post('/auth/guest').send({});
    expect(guest.status).toBe(201);
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    const search = await request(server.url)
      .post('/brain/search')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: 'where is the village square' });
    expect(search.status).toBe(200);
    expect(search.body).toMatchObject({ cached: false, hits: [] });
    // Commands fail at once while Redis is down (no offline queue), so nothing waits for reconnect attempts.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('recovers without a restart once Redis is back: ready again, and the shared cache is written again', async () => {
    await redis.start();
    const res = await waitForReadiness(server.url, 'ready');
    expect(res.status).toBe(200);
    const search = await request(server.url)
      .post('/brain/search')
      .set('Authorization', `Bearer ${token}`)
      .send({ query: 'who sells bread' });
    expect(search.status).toBe(200);
    const direct = new Redis(redis.url);
    try {
      expect((await direct.keys('brain:search:*')).length).toBeGreaterThan(0);
    } finally {
      direct.disconnect();
    }
    const metrics = await request(server.url).get('/metrics');
    expect(metrics.text).toMatch(/^platform_readiness 1$/m);
  });
});
