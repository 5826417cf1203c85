import request from 'supertest';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

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

  it('serves the outbox to this machine only', async () => {
    const res = await request(server.url).get('/dev/outbox').set('X-Forwarded-For', '203.0.113.5');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('DEV_OUTBOX_LOOPBACK_ONLY');
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
