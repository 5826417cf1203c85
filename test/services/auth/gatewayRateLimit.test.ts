import request from 'supertest';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { randomUUID } from 'node:crypto';

describe('gateway rate limit', () => {
  const servers: TestPlatform[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it('allows the configured requests per second per client, then 429 with Retry-After', async () => {
    const server = await startTestPlatform({
      GATEWAY_RATE_LIMIT_PER_SECOND: '5',
      ROLES: 'api',
      TRUST_PROXY: 'loopback',
    });
    servers.push(server);
    const responses = await burstWithinOneWindow(server.url, 7);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = responses.find((r) => r.status === 429);
    expect(limited?.headers['retry-after']).toBe('1');
    expect(limited?.headers['ratelimit-policy']).toBe('5;w=1');
    expect(limited?.headers.ratelimit).toBe('limit=5, remaining=0, reset=1');
    expect(limited?.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });
    const ok = responses.find((r) => r.status === 200);
    expect(ok?.headers.ratelimit).toMatch(/^limit=5, remaining=[0-4], reset=1$/);
  });

  it('never limits health probes', async () => {
    const server = await startTestPlatform({ GATEWAY_RATE_LIMIT_PER_SECOND: '1', ROLES: 'api' });
    servers.push(server);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => request(server.url).get('/healthz')));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('shares one limit across processes through Redis', async () => {
    // Two API processes with one Redis: a client's requests to either count against the same budget. (API role
    // only: Colyseus's matchmaker is a per-process singleton, so one process hosts at most one game server.)
    const env = {
      GATEWAY_RATE_LIMIT_PER_SECOND: '4',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ROLES: 'api',
      TRUST_PROXY: 'loopback',
    };
    const a = await startTestPlatform(env);
    const b = await startTestPlatform(env);
    servers.push(a, b);
    const client = `198.51.100.${Math.floor(Math.random() * 200) + 1}-${randomUUID()}`;
    const hit = (url: string) => request(url).get('/openapi.json').set('X-Forwarded-For', client);
    const responses = await Promise.all([
      hit(a.url),
      hit(b.url),
      hit(a.url),
      hit(b.url),
      hit(a.url),
      hit(b.url),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

/**
 * Sends `count` concurrent requests as one fresh client (its own X-Forwarded-For address) and answers them once the
 * whole burst fitted in one second, the limit's window; a burst that a loaded machine stretched past it is sent
 * again as another client, so the counts the test asserts never depend on timing luck.
 */
async function burstWithinOneWindow(url: string, count: number): Promise<request.Response[]> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const client = `198.51.100.${attempt + 1}`;
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: count }, () => request(url).get('/openapi.json').set('X-Forwarded-For', client)),
    );
    if (performance.now() - started < 900) return responses;
  }
  throw new Error(`no burst of ${count} requests fitted in one second in 5 attempts`);
}
