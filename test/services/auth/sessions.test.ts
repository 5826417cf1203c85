import { Wallet } from 'ethers';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { sessionModel } from '../../../models/Session';
import { ManualClock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { signInWithWallet } from '../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

const SERVICE_TOKEN = 'service-token-for-tests-0123456789';
const admin = Wallet.createRandom();

describe('sessions, roles and the service token', () => {
  let server: TestPlatform;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    server = await startTestPlatform(
      {
        SIWE_ENABLED: '1',
        BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
        ADMIN_ADDRESSES: admin.address,
        SIWE_SESSION_TTL_SECONDS: '600',
      },
      productParts,
      clock,
    );
  });
  afterAll(() => server.stop());

  const me = (token: string) => request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`);

  it('stores only the SHA-256 of a session token, never the token', async () => {
    const wallet = Wallet.createRandom();
    const { token } = (await signInWithWallet(server.url, wallet)).body as { token: string };
    const stored = await sessionModel(server.platform.stores.mongo!)
      .findOne({ address: wallet.address })
      .lean();
    expect(stored?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
  });

  it('revokes a session on logout', async () => {
    const { body } = await signInWithWallet(server.url, Wallet.createRandom());
    expect((await me(body.token)).status).toBe(200);
    const out = await request(server.url).post('/auth/logout').set('Authorization', `Bearer ${body.token}`);
    expect(out.status).toBe(204);
    const after = await me(body.token);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('INVALID_CREDENTIAL');
  });

  it('expires a session after SIWE_SESSION_TTL_SECONDS', async () => {
    const { body } = await signInWithWallet(server.url, Wallet.createRandom());
    clock.advance(599_000);
    expect((await me(body.token)).status).toBe(200);
    clock.advance(1_000);
    expect((await me(body.token)).status).toBe(401);
  });

  it('answers 401 without a credential on protected routes', async () => {
    const res = await request(server.url).get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', detail: 'Sign in first' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('grants bootstrap admins the admin role and lets them manage roles; others get 403', async () => {
    const adminSession = (await signInWithWallet(server.url, admin)).body.token as string;
    expect((await me(adminSession)).body.roles).toEqual(['player', 'admin']);

    const player = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;
    const playerId = (await me(player)).body.id as string;

    const denied = await request(server.url)
      .put(`/auth/users/${playerId}/roles`)
      .set('Authorization', `Bearer ${player}`)
      .send({ roles: ['operator'] });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'ROLE_REQUIRED', detail: 'Requires the admin role' });

    const granted = await request(server.url)
      .put(`/auth/users/${playerId}/roles`)
      .set('Authorization', `Bearer ${adminSession}`)
      .send({ roles: ['operator'] });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ id: playerId, roles: ['player', 'operator'], tier: 2 });
    expect((await me(player)).body.roles).toEqual(['player', 'operator']);

    const missing = await request(server.url)
      .put('/auth/users/0123456789abcdef01234567/roles')
      .set('Authorization', `Bearer ${adminSession}`)
      .send({ roles: [] });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('USER_NOT_FOUND');
  });

  it('refuses the service token where a user is required', async () => {
    const asService = await request(server.url)
      .get('/auth/me')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`);
    expect(asService.status).toBe(403);
    expect(asService.body.code).toBe('USER_SESSION_REQUIRED');
    const roles = await request(server.url)
      .put('/auth/users/0123456789abcdef01234567/roles')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({ roles: [] });
    expect(roles.status).toBe(403);
    expect(roles.body.code).toBe('USER_SESSION_REQUIRED');
  });

  it('links a second wallet to the signed-in user and refuses to move a wallet owned by someone else', async () => {
    const first = Wallet.createRandom();
    const second = Wallet.createRandom();
    const owner = (await signInWithWallet(server.url, first)).body.token as string;
    const linked = await signInWithWallet(server.url, second, owner);
    expect(linked.status).toBe(202);
    const identities = (await me(owner)).body.identities.map((i: { subject: string }) => i.subject);
    expect(identities).toEqual([first.address.toLowerCase(), second.address.toLowerCase()]);

    const stranger = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;
    const stolen = await signInWithWallet(server.url, first, stranger);
    expect(stolen.status).toBe(409);
    expect(stolen.body).toMatchObject({
      code: 'IDENTITY_LINKED_ELSEWHERE',
      detail: 'This identity already belongs to another account',
    });
  });
});

describe('the Colyseus monitor', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { ROLES: 'api,game,worker', SIWE_ENABLED: '1', ADMIN_ADDRESSES: admin.address },
      productParts,
    );
  });
  afterAll(() => server.stop());

  it('opens only to admin sessions, as bearer or as the HTTP Basic password', async () => {
    const adminSession = (await signInWithWallet(server.url, admin)).body.token as string;
    const player = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;

    const anonymous = await request(server.url).get('/colyseus/api');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="forge-admin", charset="UTF-8"');
    const asPlayer = await request(server.url).get('/colyseus/api').set('Authorization', `Bearer ${player}`);
    expect(asPlayer.status).toBe(403);
    expect(asPlayer.body.code).toBe('ROLE_REQUIRED');
    const asAdmin = await request(server.url)
      .get('/colyseus/api')
      .set('Authorization', `Bearer ${adminSession}`);
    expect(asAdmin.status).toBe(200);
    const asBrowser = await request(server.url).get('/colyseus/api').auth('admin', adminSession);
    expect(asBrowser.status).toBe(200);
  });
});
