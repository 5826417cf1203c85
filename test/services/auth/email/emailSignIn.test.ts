import { Wallet } from 'ethers';
import request from 'supertest';
import { identityModel } from '../../../../models/Identity';
import { ManualClock } from '../../../../platform/clock';
import { productParts } from '../../../../productParts';
import { signInWithWallet } from '../../../helpers/siwe';
import { codeIn, SmtpInbox } from '../../../helpers/smtpInbox';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const PASSWORD = 'correct horse battery staple';
let counter = 0;
const newEmail = () => `player${++counter}-${Date.now()}@example.com`;

describe('email sign-in', () => {
  const inbox = new SmtpInbox();
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;

  beforeAll(async () => {
    const smtpUrl = await inbox.start();
    server = await startTestPlatform(
      {
        SMTP_URL: smtpUrl,
        SIWE_ENABLED: '1',
        EMAIL_LOGIN_MAX_ATTEMPTS: '3',
        PUBLIC_BASE_URL: 'https://forge.example',
      },
      productParts,
      clock,
    );
  });
  afterAll(async () => {
    await server.stop();
    await inbox.stop();
  });

  const register = (email: string, password = PASSWORD, token?: string) => {
    const req = request(server.url).post('/auth/email/register');
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send({ email, password });
  };
  const login = (email: string, password = PASSWORD) =>
    request(server.url).post('/auth/email/login').send({ email, password });
  /** Registers `email` and verifies it with the mailed code. */
  const registerVerified = async (email: string) => {
    await register(email).expect(202);
    await request(server.url)
      .post('/auth/email/verify')
      .send({ code: codeIn(await inbox.next(email)) })
      .expect(200);
  };
  const me = (token: string) => request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`);

  it('registers, verifies by code and signs in at tier 1', async () => {
    const email = newEmail();
    const registered = await register(email.toUpperCase());
    expect(registered.status).toBe(202);
    expect(registered.body).toEqual({
      status: 'verification_sent',
      detail: 'If the address can be registered, a verification email is on its way.',
    });
    const mail = await inbox.next(email);
    expect(mail.subject).toBe('Verify your email address');
    const code = codeIn(mail);
    expect(mail.text).toContain(`https://forge.example/auth/email/verify?code=${code}`);

    const verified = await request(server.url).post('/auth/email/verify').send({ code });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      token: expect.stringMatching(/^fps_/),
      user_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      method: 'email',
      issued_at: expect.any(String),
      expires_at: expect.any(String),
    });
    const profile = await me(verified.body.token);
    expect(profile.body).toMatchObject({
      tier: 1,
      tier_name: 'Registered',
      identities: [{ kind: 'email', subject: email, verified: true }],
    });

    const again = await request(server.url).post('/auth/email/verify').send({ code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'EMAIL_CODE_INVALID',
      detail: 'The code is invalid, expired or already used',
    });

    const loggedIn = await login(email);
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.user_id).toBe(verified.body.user_id);
  });

  it('stores the password as an argon2id hash (19 MiB, 2 passes), never in clear', async () => {
    const email = newEmail();
    await registerVerified(email);
    const identity = await identityModel(server.platform.stores.mongo!)
      .findOne({ kind: 'email', subject: email })
      .lean();
    expect(identity?.passwordHash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/,
    );
    expect(JSON.stringify(identity)).not.toContain(PASSWORD);
  });

  it('refuses a login against a corrupt stored hash like a wrong password, and logs it at error', async () => {
    const email = newEmail();
    await registerVerified(email);
    await identityModel(server.platform.stores.mongo!).updateOne(
      { kind: 'email', subject: email },
      { $set: { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$truncated' } },
    );
    const res = await login(email);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'EMAIL_LOGIN_FAILED', detail: 'Invalid email or password' });
    const logged = server.logs.withMessage('stored password hash is unreadable; the login was refused');
    expect(logged).toEqual([
      expect.objectContaining({ level: 'error', code: 'PASSWORD_HASH_CORRUPT', userId: expect.any(String) }),
    ]);
    expect(JSON.stringify(logged)).not.toContain('truncated');
  });

  it('verifies through the mailed link too', async () => {
    const email = newEmail();
    await register(email).expect(202);
    const code = codeIn(await inbox.next(email));
    const res = await request(server.url).get(`/auth/email/verify?code=${code}`);
    expect(res.status).toBe(200);
    expect(res.body.method).toBe('email');
  });

  it('gives unknown addresses and wrong passwords the same answer', async () => {
    const email = newEmail();
    await registerVerified(email);
    const wrong = await login(email, 'not the password at all');
    const unknown = await login(newEmail());
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'EMAIL_LOGIN_FAILED', detail: 'Invalid email or password' });
    }
  });

  it('answers a repeat registration of a verified address exactly like a new one, and notifies the owner', async () => {
    const email = newEmail();
    await registerVerified(email);
    const repeat = await register(email, 'another password entirely');
    expect(repeat.status).toBe(202);
    expect(repeat.body).toEqual({
      status: 'verification_sent',
      detail: 'If the address can be registered, a verification email is on its way.',
    });
    const notice = await inbox.next(email);
    expect(notice.subject).toBe('Someone tried to register your address');
    expect((await login(email, 'another password entirely')).status).toBe(401);
    expect((await login(email)).status).toBe(200);
  });

  it('refuses login before verification with 403 once the password is right', async () => {
    const email = newEmail();
    await register(email).expect(202);
    await inbox.next(email);
    const res = await login(email);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('EMAIL_NOT_VERIFIED');
  });

  it('expires codes after EMAIL_VERIFICATION_TTL_MINUTES', async () => {
    const email = newEmail();
    await register(email).expect(202);
    const code = codeIn(await inbox.next(email));
    clock.advance(30 * 60_000);
    const res = await request(server.url).post('/auth/email/verify').send({ code });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('EMAIL_CODE_INVALID');
  });

  it('throttles login attempts per address', async () => {
    const email = newEmail();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(email, 'guess number ' + i)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('links a verified email to a signed-in wallet user, raising them to tier 3', async () => {
    const wallet = Wallet.createRandom();
    const walletSession = (await signInWithWallet(server.url, wallet)).body.token as string;
    const email = newEmail();
    await register(email, PASSWORD, walletSession).expect(202);
    const verified = await request(server.url)
      .post('/auth/email/verify')
      .send({ code: codeIn(await inbox.next(email)) });
    expect(verified.status).toBe(200);
    const profile = (await me(walletSession)).body;
    expect(profile.tier).toBe(3);
    expect(profile.tier_name).toBe('Trusted');
    expect(profile.identities.map((i: { kind: string }) => i.kind)).toEqual(['wallet', 'email']);
    expect(verified.body.user_id).toBe(profile.id);
  });

  it('never moves a verified address to a signed-in user who registers it: same 202, the owner is notified', async () => {
    const email = newEmail();
    await registerVerified(email);
    const ownerId = (await login(email)).body.user_id as string;
    const intruder = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;

    const res = await register(email, 'the intruder password', intruder);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'verification_sent',
      detail: 'If the address can be registered, a verification email is on its way.',
    });
    expect((await inbox.next(email)).subject).toBe('Someone tried to register your address');
    const identities = (await me(intruder)).body.identities.map((i: { kind: string }) => i.kind);
    expect(identities).toEqual(['wallet']);
    expect((await login(email)).body.user_id).toBe(ownerId);
  });

  it('rejects malformed input with 400 and sends nothing', async () => {
    const res = await register('not-an-email', 'short');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.email', 'body.password']);
    expect(inbox.messages).toEqual([]);
  });
});

describe('email sign-in without SMTP in production', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ NODE_ENV: 'production' }, productParts);
  });
  afterAll(() => server.stop());

  it('answers 501 EMAIL_DISABLED', async () => {
    const res = await request(server.url)
      .post('/auth/email/register')
      .send({ email: 'a@example.com', password: PASSWORD });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('EMAIL_DISABLED');
  });
});
