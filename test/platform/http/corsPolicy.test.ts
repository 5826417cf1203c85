import request from 'supertest';
import { originMatcher } from '../../../platform/http/corsPolicy';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

describe('originMatcher', () => {
  const allowed = originMatcher([
    'https://*.forge.example',
    'https://partner.example',
    'http://localhost:5173',
  ]);

  it.each([
    ['https://app.forge.example', true],
    ['https://a.b.forge.example', true],
    ['https://partner.example', true],
    ['http://localhost:5173', true],
    ['https://forge.example', false],
    ['https://evil-forge.example', false],
    ['https://app.forge.example.evil.com', false],
    ['http://app.forge.example', false],
    ['https://app.forge.example:8443', false],
    ['https://partner.example.evil', false],
    ['http://localhost:3000', false],
    ['null', false],
  ])('%s -> %s', (origin, expected) => {
    expect(allowed(origin)).toBe(expected);
  });

  it('accepts any origin for "*"', () => {
    expect(originMatcher(['*'])('https://anything.example')).toBe(true);
  });

  it.each([
    'forge.example',
    'https://forge.example/app',
    'ftp://forge.example',
    'https://*',
    'https://*.*.forge.example',
  ])('refuses the malformed pattern %s with a configuration error', (pattern) => {
    expect(() => originMatcher(['https://ok.example', pattern])).toThrow(
      `SIWE_ALLOWED_ORIGINS: expected comma-separated origins: https://host[:port], https://*.domain[:port] or * (got ${JSON.stringify(pattern)})`,
    );
  });
});

describe('CORS on the sign-in routes', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', SIWE_ALLOWED_ORIGINS: 'https://*.forge.example' },
      productParts,
    );
  });
  afterAll(() => server.stop());

  it('answers a preflight from an allowed origin with CORS headers', async () => {
    const res = await request(server.url)
      .options('/auth/wallet/verify')
      .set('Origin', 'https://app.forge.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.forge.example');
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PUT,DELETE');
  });

  it('gives a look-alike origin no CORS headers', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/nonce')
      .set('Origin', 'https://evil-forge.example');
    expect(res.status).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('exposes the request id, rate-limit and replay headers to allowed origins', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/nonce')
      .set('Origin', 'https://app.forge.example');
    expect(res.headers['access-control-allow-origin']).toBe('https://app.forge.example');
    expect(res.headers['access-control-expose-headers']).toBe(
      'X-Request-Id,RateLimit,RateLimit-Policy,Retry-After,Idempotent-Replayed',
    );
  });
});

describe('CORS configuration', () => {
  it('stops start-up on a malformed SIWE_ALLOWED_ORIGINS', async () => {
    await expect(
      startTestPlatform({ SIWE_ALLOWED_ORIGINS: 'https://*.forge.example,forge.example' }, productParts),
    ).rejects.toThrow('SIWE_ALLOWED_ORIGINS: expected comma-separated origins');
  });
});
