import { z } from 'zod';
import http from 'node:http';
import request from 'supertest';
import type { ApiRoutes } from '../../platform/http/routes';
import { createLogger } from '../../platform/logger';
import { LogCapture } from '../helpers/logCapture';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/** A route that logs through `req.log` and answers; and one that waits for its whole body before answering. */
function loggingService(routes: ApiRoutes) {
  routes.add({
    method: 'get',
    path: '/context/echo',
    summary: 'Logs a line through the request logger',
    tags: ['test'],
    responses: { 200: { description: 'Done', schema: z.object({ id: z.string() }) } },
    handler: ({ req }) => {
      req.log.info({ detail: 'inside the handler' }, 'handler line');
      return { status: 200, body: { id: req.id } };
    },
  });
}

/** Resolves once a log line matching `predicate` has been written; fails the test after 5 s without one. */
function nextLine(
  logs: LogCapture,
  predicate: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  return logs.waitForLine(predicate);
}

describe('request ids and log redaction', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({}, { services: [loggingService] });
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

  it('logs one access line per request with its id, method, URL, status and duration', async () => {
    await request(server.url).get('/nothing-here?page=2').set('X-Request-Id', 'access-line');
    const line = await nextLine(
      server.logs,
      (l) => l.reqId === 'access-line' && l.msg === 'request completed',
    );
    expect(line).toEqual({
      level: 'warn',
      time: expect.any(String),
      name: 'forge-platform',
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'access-line',
      component: 'http',
      req: {
        id: 'access-line',
        method: 'GET',
        url: '/nothing-here?page=2',
        remoteAddress: expect.any(String),
      },
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(server.logs.lines.filter((l) => l.reqId === 'access-line' && l.component === 'http')).toHaveLength(
      1,
    );
  });

  it('logs successful requests at info, and lines written by handlers carry the request id', async () => {
    const res = await request(server.url).get('/context/echo').set('X-Request-Id', 'handler-line');
    expect(res.body).toEqual({ id: 'handler-line' });
    const access = await nextLine(
      server.logs,
      (l) => l.reqId === 'handler-line' && l.msg === 'request completed',
    );
    expect(access).toMatchObject({ level: 'info', res: { statusCode: 200 } });
    expect(server.logs.withMessage('handler line')).toEqual([
      expect.objectContaining({ reqId: 'handler-line', detail: 'inside the handler', level: 'info' }),
    ]);
  });

  it('keeps credentials out of the log: headers are not logged, sign-in codes in URLs are redacted', async () => {
    await request(server.url)
      .get('/nothing-here?email=a%40b.example&code=one-time-code-value&token=query-token-value')
      .set('X-Request-Id', 'redact-check')
      .set('Authorization', 'Bearer super-secret-token-value')
      .set('Cookie', 'session=cookie-secret-value');
    const line = await nextLine(
      server.logs,
      (l) => l.reqId === 'redact-check' && l.msg === 'request completed',
    );
    expect((line.req as { url: string }).url).toBe(
      '/nothing-here?email=a%40b.example&code=[redacted]&token=[redacted]',
    );
    const text = server.logs.raw.join('\n');
    for (const secret of [
      'super-secret-token-value',
      'cookie-secret-value',
      'one-time-code-value',
      'query-token-value',
    ])
      expect(text).not.toContain(secret);
  });

  it('does not log health probes', async () => {
    await request(server.url).get('/healthz').set('X-Request-Id', 'probe-line');
    await request(server.url).get('/nothing-here').set('X-Request-Id', 'after-probe');
    await nextLine(server.logs, (l) => l.reqId === 'after-probe');
    expect(server.logs.lines.filter((l) => l.reqId === 'probe-line')).toEqual([]);
  });

  it('logs a request whose client went away before the answer as aborted', async () => {
    const client = http.request(`${server.url}/examples`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '100', 'x-request-id': 'gone-early' },
    });
    client.on('error', () => undefined);
    // The headers and part of the body reach the server before the connection closes (TCP keeps the order).
    await new Promise<void>((resolve) => client.write('{"partial": ', () => resolve()));
    client.destroy();
    const line = await nextLine(server.logs, (l) => l.reqId === 'gone-early' && l.component === 'http');
    expect(line).toMatchObject({
      level: 'warn',
      msg: 'request aborted',
      req: { method: 'POST', url: '/examples' },
    });
  });
});

describe('logger redaction', () => {
  it('replaces credentials anywhere in a logged object with [redacted]', () => {
    const capture = new LogCapture();
    const logger = createLogger({ level: 'info', destination: capture });
    logger.info(
      {
        req: { headers: { authorization: 'Bearer header-secret', cookie: 'c=cookie-secret', host: 'x' } },
        body: { password: 'password-secret', token: 'token-secret', name: 'kept' },
        config: { BRAIN_SERVICE_TOKEN: 'service-secret' },
      },
      'credentials check',
    );
    expect(capture.lines[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]', host: 'x' } },
      body: { password: '[redacted]', token: '[redacted]', name: 'kept' },
      config: { BRAIN_SERVICE_TOKEN: '[redacted]' },
    });
    expect(capture.raw.join('\n')).not.toMatch(/-secret/);
  });
});
