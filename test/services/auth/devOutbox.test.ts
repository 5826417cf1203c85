import request from 'supertest';
import type { PlatformContext } from '../../../platform/platform';
import { productParts } from '../../../productParts';
import { createAuthService } from '../../../services/auth';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** Only the identity area: the outbox and email sign-in. */
const identityOnly = (context: PlatformContext) => {
  const auth = createAuthService(context);
  return { services: [auth.register], close: () => auth.close() };
};

/** The development token the outbox printed at start-up. */
function printedToken(server: TestPlatform): string {
  const line = server.logs.lines.find((l) => String(l.msg).startsWith('development outbox: mails are kept'));
  return /X-Dev-Outbox-Token: (\S+)$/.exec(String(line?.msg))?.[1] ?? '';
}

const PASSWORD = 'correct horse battery';

describe('development mail outbox (SMTP_URL unset, NODE_ENV not production)', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    // Trusting the loopback proxy lets the last test present a remote client address through X-Forwarded-For.
    server = await startTestPlatform({ TRUST_PROXY: 'loopback' }, productParts);
  });
  afterAll(() => server.stop());

  it('keeps and logs the verification mail, whose code signs the user in', async () => {
    await request(server.url)
      .post('/auth/email/register')
      .send({ email: 'Dev@Example.com', password: PASSWORD })
      .expect(202);
    const outbox = await request(server.url).get('/dev/outbox');
    expect(outbox.status).toBe(200);
    const [mail] = outbox.body.mails;
    expect(mail).toMatchObject({ to: 'dev@example.com', subject: 'Verify your email address' });
    const code = /code is:\n\n(\S+)/.exec(mail.text)?.[1] ?? '';
    expect(code).toHaveLength(32);
    const [logged] = server.logs.withMessage('development outbox: mail kept');
    expect(logged).toMatchObject({ to: 'dev@example.com' });
    expect(String(logged?.text)).toContain(code);

    const verified = await request(server.url).post('/auth/email/verify').send({ code });
    expect(verified.status).toBe(200);
    expect(verified.body.method).toBe('email');
    const login = await request(server.url)
      .post('/auth/email/login')
      .send({ email: 'dev@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it('serves the outbox to this machine only, as the trusted proxy resolves the client', async () => {
    const res = await request(server.url).get('/dev/outbox').set('X-Forwarded-For', '203.0.113.5');
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('DEV_OUTBOX_LOOPBACK_ONLY');
    // A browser on this machine through the proxy on this machine.
    expect((await request(server.url).get('/dev/outbox').set('X-Forwarded-For', '127.0.0.1')).status).toBe(
      200,
    );
    // A trusted proxy that names the client only in X-Real-IP / Forwarded: the client is unknown, so refused.
    for (const [name, value] of [
      ['X-Real-IP', '203.0.113.5'],
      ['Forwarded', 'for=203.0.113.5'],
    ])
      expect((await request(server.url).get('/dev/outbox').set(name, value)).status).toBe(403);
  });
});

describe('development outbox behind a proxy on the same host with TRUST_PROXY unset', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ NODE_ENV: 'development' }, identityOnly);
  });
  afterAll(() => server.stop());
  const outbox = () => request(server.url).get('/dev/outbox');

  it('serves a direct request from this machine', async () => {
    expect((await outbox()).status).toBe(200);
  });

  it.each([
    ['X-Forwarded-For', '203.0.113.5'],
    ['X-Forwarded-For', '127.0.0.1'],
    ['Forwarded', 'for=203.0.113.5;proto=https'],
    ['X-Real-IP', '203.0.113.5'],
    ['Via', '1.1 nginx'],
  ])(
    'refuses a loopback socket carrying %s: %s (a proxy forwarding an unknown client)',
    async (name, value) => {
      const res = await outbox().set(name, value);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'DEV_OUTBOX_LOOPBACK_ONLY',
        detail:
          'The development outbox is served to this machine only (as TRUST_PROXY resolves the client), or with ' +
          'the X-Dev-Outbox-Token printed at start-up',
      });
    },
  );

  it('serves whoever presents the token printed at start-up, and no other token', async () => {
    const token = printedToken(server);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const proxied = () => outbox().set('X-Forwarded-For', '203.0.113.5');
    expect((await proxied().set('X-Dev-Outbox-Token', token)).status).toBe(200);
    expect((await proxied().set('X-Dev-Outbox-Token', `${token.slice(0, -1)}x`)).status).toBe(403);
    expect((await proxied().set('X-Dev-Outbox-Token', '')).status).toBe(403);
  });
});

describe('no outbox in production', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ NODE_ENV: 'production' }, productParts);
  });
  afterAll(() => server.stop());

  it('answers 404 for /dev/outbox and 501 for email sign-in', async () => {
    expect((await request(server.url).get('/dev/outbox')).status).toBe(404);
    const res = await request(server.url)
      .post('/auth/email/register')
      .send({ email: 'a@example.com', password: PASSWORD });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('EMAIL_DISABLED');
  });
});
