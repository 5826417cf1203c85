import net from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { characterModel } from '../../../models/Character';
import { ManualClock } from '../../../platform/clock';
import { GuestRetention } from '../../../services/auth/guest/guestRetention';
import { followLogin, OIDC_CLIENT_ID, TestOpenIdProvider } from '../../helpers/oidcProvider';
import type { TestPlatform } from '../../helpers/platform';
import { startWorldPlatform } from '../mud/worldPlatform';

const DAY_MS = 86_400_000;
const PASSWORD = 'correct horse battery';

/** A free TCP port, so the platform's OIDC redirect URI is known before it starts. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A guest keeps its character when it links an email (through the development outbox) or an SSO identity; a guest
 * that never links is removed with its character by the retention job, and a linked one is not.
 */
describe('guests linking an identity, and guest retention', () => {
  const idp = new TestOpenIdProvider();
  let server: TestPlatform;
  let redirectUri: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/auth/oidc/callback`;
    const issuer = await idp.start(redirectUri);
    server = await startWorldPlatform({
      PORT: String(port),
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID,
      OIDC_REDIRECT_URI: redirectUri,
      GUEST_SIGNIN_PER_HOUR: '1000',
    });
  });
  afterAll(async () => {
    await server.stop();
    await idp.stop();
  });

  /** A guest who walked east to the market: its sign-in body. */
  async function guestAtTheMarket(name: string) {
    const guest = (await request(server.url).post('/auth/guest').send({ display_name: name }).expect(201))
      .body;
    const moved = await request(server.url)
      .post('/mud/move')
      .set(as(guest.token))
      .send({ direction: 'east' });
    expect(moved.status).toBe(200);
    expect(moved.body.room).toBe('village:market');
    return guest as { token: string; user_id: string };
  }

  /** The caller's character as `look` shows it. */
  const look = async (token: string) =>
    (await request(server.url).post('/mud/action').set(as(token)).send({ action: 'look' }).expect(200)).body;

  it('keeps its character when it links an email address', async () => {
    const guest = await guestAtTheMarket('Ash Linker');
    const email = `ash-${Date.now()}@example.com`;
    await request(server.url)
      .post('/auth/email/register')
      .set(as(guest.token))
      .send({ email, password: PASSWORD })
      .expect(202);
    const outbox = await request(server.url).get('/dev/outbox').expect(200);
    const mail = outbox.body.mails.find((entry: { to: string }) => entry.to === email);
    const code = /code is:\n\n(\S+)/.exec(mail.text)?.[1] ?? '';
    const verified = await request(server.url).post('/auth/email/verify').send({ code }).expect(200);

    expect(verified.body.user_id).toBe(guest.user_id);
    const me = await request(server.url).get('/auth/me').set(as(verified.body.token)).expect(200);
    expect(me.body).toMatchObject({ id: guest.user_id, tier: 1, display_name: 'Ash Linker' });
    expect(await look(verified.body.token)).toMatchObject({
      user_id: guest.user_id,
      room: 'village:market',
      player: { name: 'Ash Linker' },
    });
  });

  it('keeps its character when it links an SSO identity', async () => {
    const guest = await guestAtTheMarket('Birch Linker');
    idp.nextAccount = `birch-${Date.now()}`;
    const started = await request(server.url).post('/auth/oidc/start').set(as(guest.token)).expect(200);
    const callback = await followLogin(started.body.authorization_url, redirectUri);
    const linked = await request(server.url).get(`${callback.pathname}${callback.search}`).expect(200);

    const me = await request(server.url).get('/auth/me').set(as(linked.body.token)).expect(200);
    expect(me.body).toMatchObject({ id: guest.user_id, tier: 1, display_name: 'Birch Linker' });
    expect(me.body.identities.map((identity: { kind: string }) => identity.kind)).toEqual(['oidc']);
    expect(await look(linked.body.token)).toMatchObject({ user_id: guest.user_id, room: 'village:market' });
  });

  it('removes a guest that never linked, with its character, after GUEST_RETENTION_DAYS; keeps linked ones', async () => {
    const stray = await guestAtTheMarket('Cedar Stray');
    const characters = characterModel(server.platform.stores.mongo!);
    expect(await characters.exists({ userId: stray.user_id })).not.toBeNull();
    const linkedBefore = await characters.countDocuments({ name: { $in: ['Ash Linker', 'Birch Linker'] } });
    expect(linkedBefore).toBe(2);

    // A month and a day later, by the retention job's clock.
    const later = new ManualClock(Date.now() + 31 * DAY_MS);
    const retention = new GuestRetention(server.platform.stores.mongo!, later, 30, pino({ level: 'silent' }));
    expect(await retention.sweep()).toBe(1);

    expect(await characters.exists({ userId: stray.user_id })).toBeNull();
    const gone = await request(server.url).get('/auth/me').set(as(stray.token));
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('INVALID_CREDENTIAL');
    expect(await characters.countDocuments({ name: { $in: ['Ash Linker', 'Birch Linker'] } })).toBe(2);
  });
});
