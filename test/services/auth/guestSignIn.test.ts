import pino from 'pino';
import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { GuestRetention } from '../../../services/auth/guest/guestRetention';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

const DAY_MS = 86_400_000;

async function guest(url: string, body?: object) {
  const req = request(url).post('/auth/guest');
  return body ? req.send(body) : req;
}

describe('guest sign-in', () => {
  let server: TestPlatform;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    server = await startTestPlatform({ GUEST_SIGNIN_PER_HOUR: '1000' }, productParts, clock);
  });
  afterAll(() => server.stop());

  it('creates a tier-0 user with a generated name and a guest session', async () => {
    const res = await guest(server.url);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['display_name', 'expires_at', 'issued_at', 'method', 'token', 'user_id'].sort(),
    );
    expect(res.body.method).toBe('guest');
    expect(res.body.display_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+( \d+)?$/);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.issued_at)).toBe(30 * DAY_MS);
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: res.body.user_id,
      display_name: res.body.display_name,
      tier: 0,
      tier_name: 'Anonymous',
      identities: [],
      session: { method: 'guest' },
    });
  });

  it('takes a chosen display name, unique case-insensitively', async () => {
    const first = await guest(server.url, { display_name: 'Ann of Thornwick' });
    expect(first.status).toBe(201);
    expect(first.body.display_name).toBe('Ann of Thornwick');
    const second = await guest(server.url, { display_name: 'ann OF thornwick' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'DISPLAY_NAME_TAKEN', detail: 'This display name is taken' });
  });

  it('refuses malformed and denied names with 400, creating nothing', async () => {
    const short = await guest(server.url, { display_name: 'Al' });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('VALIDATION_FAILED');
    expect(short.body.errors).toEqual([
      { path: 'body.display_name', message: 'expected 3 to 24 characters' },
    ]);
    const symbols = await guest(server.url, { display_name: 'Ann<script>' });
    expect(symbols.body.errors).toEqual([
      { path: 'body.display_name', message: 'expected letters and digits separated by single spaces' },
    ]);
    const denied = await guest(server.url, { display_name: 'The Ad min' });
    expect(denied.status).toBe(400);
    expect(denied.body).toMatchObject({
      code: 'DISPLAY_NAME_NOT_ALLOWED',
      detail: 'This display name is not allowed',
      errors: [{ path: 'body.display_name', message: 'not allowed' }],
    });
    const extra = await guest(server.url, { display_name: 'Valid Name', tier: 4 });
    expect(extra.status).toBe(400);
  });

  it('lets a signed-in user choose a display name with PUT /auth/me', async () => {
    const { body } = await guest(server.url);
    const auth = `Bearer ${body.token}`;
    const put = await request(server.url)
      .put('/auth/me')
      .set('Authorization', auth)
      .send({ display_name: 'Bram' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: body.user_id, display_name: 'Bram' });
    const me = await request(server.url).get('/auth/me').set('Authorization', auth);
    expect(me.body.display_name).toBe('Bram');

    const other = await guest(server.url);
    const taken = await request(server.url)
      .put('/auth/me')
      .set('Authorization', `Bearer ${other.body.token}`)
      .send({ display_name: 'BRAM' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('DISPLAY_NAME_TAKEN');
    const again = await request(server.url)
      .put('/auth/me')
      .set('Authorization', auth)
      .send({ display_name: 'Bram' });
    expect(again.status).toBe(200);
    const anonymous = await request(server.url).put('/auth/me').send({ display_name: 'Nobody' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('removes guests unseen for GUEST_RETENTION_DAYS with their sessions, and keeps recent ones', async () => {
    const old = await guest(server.url);
    const retention = new GuestRetention(server.platform.stores.mongo!, clock, 30, pino({ level: 'silent' }));
    expect(await retention.sweep()).toBe(0);
    clock.advance(31 * DAY_MS);
    const recent = await guest(server.url);
    // Every guest made so far is past the cutoff; `recent` was created after the clock moved on.
    expect(await retention.sweep()).toBeGreaterThanOrEqual(1);
    const gone = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${old.body.token}`);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('INVALID_CREDENTIAL');
    expect(
      (await request(server.url).get('/auth/me').set('Authorization', `Bearer ${recent.body.token}`)).status,
    ).toBe(200);
  });
});

describe('guest sign-in limits', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ GUEST_SIGNIN_PER_HOUR: '2' }, productParts);
  });
  afterAll(() => server.stop());

  it('answers 429 with Retry-After past GUEST_SIGNIN_PER_HOUR for one address', async () => {
    expect((await guest(server.url)).status).toBe(201);
    expect((await guest(server.url)).status).toBe(201);
    const third = await guest(server.url);
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('GUEST_SIGNIN_THROTTLED');
    expect(third.body.detail).toBe('Too many guest accounts from this address: try again later');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });
});

describe('guest sign-in disabled', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ GUEST_SIGNIN_ENABLED: '0' }, productParts);
  });
  afterAll(() => server.stop());

  it('answers 501 GUEST_DISABLED', async () => {
    const res = await guest(server.url);
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('GUEST_DISABLED');
  });
});
