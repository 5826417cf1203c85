import request from 'supertest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../../platform/config';
import type { ApiRoutes } from '../../../platform/http/routes';
import { spawnServer } from '../../helpers/childProcess';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** One validated route, echoing what it was given. */
function echoService(routes: ApiRoutes) {
  routes.add({
    method: 'post',
    path: '/echo',
    summary: 'Echo a value',
    tags: ['examples'],
    request: { body: z.object({ value: z.unknown() }) },
    responses: {
      200: { description: 'Echoed', schema: z.object({ echoed: z.boolean(), kind: z.string() }) },
    },
    handler: ({ body }) => ({ status: 200, body: { echoed: true, kind: typeof body.value } }),
  });
  routes.add({
    method: 'get',
    path: '/whoami',
    summary: 'The client address requests are counted under (the rate limiter key)',
    tags: ['examples'],
    responses: { 200: { description: 'The address', schema: z.object({ ip: z.string().optional() }) } },
    handler: ({ req }) => ({ status: 200, body: { ip: req.ip } }),
  });
}

const nested = (depth: number) => `{"value":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('HTTP edges', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { BODY_LIMIT_BYTES: String(2 * 1_048_576) },
      { services: [echoService] },
    );
  });
  afterAll(() => server.stop());

  const post = (body: string) =>
    request(server.url).post('/echo').set('Content-Type', 'application/json').send(body);

  describe('JSON nesting depth', () => {
    it('accepts 64 levels and answers 400 JSON_TOO_DEEP from 65', async () => {
      expect((await post(nested(64))).status).toBe(200);
      const deep = await post(nested(65));
      expect(deep.status).toBe(400);
      expect(deep.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(deep.body).toMatchObject({
        code: 'JSON_TOO_DEEP',
        detail: 'The request body is nested deeper than 64 levels',
      });
    });

    it('refuses 500,000 nested arrays in 1 MB without parsing them', async () => {
      const res = await post(`${'['.repeat(500_000)}${']'.repeat(500_000)}`);
      expect([res.status, res.body.code]).toEqual([400, 'JSON_TOO_DEEP']);
    });

    it('does not count brackets inside strings, escaped quotes included', async () => {
      const res = await post(JSON.stringify({ value: `\\"${'['.repeat(100)}` }));
      expect(res.body).toEqual({ echoed: true, kind: 'string' });
    });
  });

  describe('security headers', () => {
    it('sends helmet headers, the CSP and no-store on answers and problems alike', async () => {
      for (const res of [
        await request(server.url).get('/healthz'),
        await request(server.url).get('/nowhere'),
      ]) {
        expect(res.headers).toMatchObject({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        });
        const csp = res.headers['content-security-policy'];
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("connect-src 'self' ws: wss:");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("object-src 'none'");
        expect(csp).not.toContain('upgrade-insecure-requests');
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it('adds HSTS when PUBLIC_BASE_URL is https', async () => {
      const https = await startTestPlatform({ PUBLIC_BASE_URL: 'https://forge.example' });
      try {
        const res = await request(https.url).get('/healthz');
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
      } finally {
        await https.stop();
      }
    });
  });

  describe('access-log redaction', () => {
    const NAMES = [
      'privateKey',
      'mnemonic',
      'client_secret',
      'session',
      'jwt',
      'signature',
      'key',
      'password',
      'authorization',
      'token',
      'code',
    ];
    /** `name` with every character percent-encoded, as a client may send it. */
    const encoded = (name: string) => [...name].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

    it('logs no value of a credential parameter, sent plain, encoded or with another case', async () => {
      const values: string[] = [];
      for (const [i, name] of NAMES.entries()) {
        for (const [j, form] of [name, encoded(name), name.toUpperCase()].entries()) {
          const value = `leak${i}x${j}value`;
          values.push(value);
          await request(server.url)
            .get(`/nowhere?page=2&${form}=${value}`)
            .set('X-Forwarded-For', `10.0.${i}.${j}`);
        }
      }
      const lines = server.logs.withMessage('request completed').map((line) => JSON.stringify(line));
      expect(lines.join('\n')).toContain('page=2');
      for (const value of values) expect(server.logs.raw.join('\n')).not.toContain(value);
    });
  });

  describe('TRUST_PROXY', () => {
    it('accepts what Express users write', () => {
      const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;
      expect(parse('true')).toBe(true);
      expect(parse('FALSE')).toBe(false);
      expect(parse('2')).toBe(2);
      expect(parse('loopback, 10.0.0.0/8, fd00::/8, 192.168.1.7')).toEqual([
        'loopback',
        '10.0.0.0/8',
        'fd00::/8',
        '192.168.1.7',
      ]);
      expect(loadConfig({}).TRUST_PROXY).toBe(false);
    });

    it.each(['loopbak', '10.0.0.0/33', '300.1.1.1', '1.5', ''])(
      'refuses %j, naming the variable',
      (value) => {
        const attempt = () => loadConfig({ TRUST_PROXY: value === '' ? ',' : value });
        expect(attempt).toThrow(ConfigError);
        expect(attempt).toThrow(/TRUST_PROXY: expected true, false, a hop count/);
      },
    );

    it('stops start-up with exit 78 on a bad value', async () => {
      const child = spawnServer({ PORT: '0', HOST: '127.0.0.1', TRUST_PROXY: 'everyone' });
      expect((await child.exit).code).toBe(78);
      expect(child.stderr.join('')).toContain('TRUST_PROXY: expected true, false');
    }, 120_000);

    it('by default, a local client cannot choose its address (the rate-limit key) with X-Forwarded-For', async () => {
      const whoami = (url: string) => request(url).get('/whoami').set('X-Forwarded-For', '198.51.100.7');
      expect((await whoami(server.url)).body).toEqual({ ip: '127.0.0.1' });
      const behindProxy = await startTestPlatform({ TRUST_PROXY: 'loopback' }, { services: [echoService] });
      try {
        expect((await whoami(behindProxy.url)).body).toEqual({ ip: '198.51.100.7' });
      } finally {
        await behindProxy.stop();
      }
    });
  });
});
