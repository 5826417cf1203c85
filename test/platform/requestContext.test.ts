import request from 'supertest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

describe('request ids and log redaction', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform();
  });
  afterAll(() => server.stop());

  it('echoes a valid incoming X-Request-Id', async () => {
    const res = await request(server.url).get('/healthz').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('replaces an invalid X-Request-Id with a generated UUID', async () => {
    const res = await request(server.url).get('/healthz').set('X-Request-Id', 'has spaces in it');
    expect(res.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('generates a distinct id per request when none is sent', async () => {
    const [a, b] = await Promise.all([
      request(server.url).get('/healthz'),
      request(server.url).get('/healthz'),
    ]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('logs each request with its id and redacts credentials', async () => {
    await request(server.url)
      .get('/nothing-here')
      .set('X-Request-Id', 'redact-check')
      .set('Authorization', 'Bearer super-secret-token-value');
    const line = server.logs.lines.find(
      (l) => (l as { req?: { id?: string } }).req?.id === 'redact-check' && l.msg === 'request completed',
    );
    expect(line).toBeDefined();
    expect((line as { req: { headers: Record<string, string> } }).req.headers.authorization).toBe(
      '[redacted]',
    );
    expect(server.logs.raw.join('\n')).not.toContain('super-secret-token-value');
  });
});
