import request from 'supertest';
import { Wallet } from 'ethers';
import { buildSiweMessage } from '../../helpers/siwe';
import { grant, signIn, startAdminPlatform, type SignedIn } from './adminPlatform';

describe('the audit log and POST /admin/brain/search/audit', () => {
  let ctx: Awaited<ReturnType<typeof startAdminPlatform>>;
  let ann: SignedIn;
  const mallory = Wallet.createRandom();

  beforeAll(async () => {
    ctx = await startAdminPlatform();
    ann = await signIn(ctx.server.url);
    // Two failed sign-ins: a signature by another key for mallory's address.
    for (let i = 0; i < 2; i += 1) {
      const { body } = await request(ctx.server.url).post('/auth/wallet/nonce').expect(201);
      const message = buildSiweMessage(mallory, body.nonce);
      const signature = await Wallet.createRandom().signMessage(message);
      await request(ctx.server.url)
        .post('/auth/wallet/verify')
        .send({ address: mallory.address, signature, nonce: body.nonce, message })
        .expect(401);
    }
    await ctx
      .as(ctx.admin, 'put', `/auth/users/${ann.userId}/roles`)
      .send({ roles: ['creator'] })
      .expect(200);
    await grant(ctx.server.url, ann.userId, 40, 'audit-grant-1');
  });
  afterAll(() => ctx.server.stop());

  const search = (body: object) => ctx.as(ctx.admin, 'post', '/admin/brain/search/audit').send(body);

  it('records sign-ins, failed sign-ins, role changes and grants, and finds failures by meaning', async () => {
    const res = await search({ query: 'who failed to log in', limit: 10 });
    expect(res.status).toBe(200);
    expect(res.body.hits).toHaveLength(2);
    for (const hit of res.body.hits) {
      expect(hit.event).toMatchObject({
        actor: 'anonymous',
        kind: 'auth.sign_in_failed',
        target: `address:${mallory.address.toLowerCase()}`,
        outcome: 'failed',
        details: { code: 'SIWE_SIGNATURE_INVALID', status: 401, route: '/auth/wallet/verify' },
      });
      expect(hit.event.request_id).toEqual(expect.any(String));
      expect(hit.score).toBeGreaterThan(0);
    }
    expect(res.body.interpreted.texts[0].text).toContain('auth sign in failed');

    const roles = await search({ query: 'role change permissions' });
    expect(roles.body.hits[0].event).toMatchObject({
      actor: `user:${ctx.admin.userId}`,
      kind: 'auth.roles_changed',
      target: `user:${ann.userId}`,
      details: { roles: ['player', 'creator'] },
    });
    const money = await search({ query: 'coins granted as a reward' });
    expect(money.body.hits[0].event).toMatchObject({
      actor: 'service',
      kind: 'economy.grant',
      target: `user:${ann.userId}`,
      details: { amount: 40, currency: 'soft', reason: 'quest bonus' },
    });
  });

  it('filters by actor, kinds and time, and reads identifiers in the query as actor or target', async () => {
    const mine = await search({ query: 'sign in', actor: `user:${ann.userId}` });
    expect(mine.body.hits.map((hit: { event: { kind: string } }) => hit.event.kind)).toEqual([
      'auth.sign_in',
    ]);
    expect(mine.body.hits[0].event.details).toEqual({ method: 'wallet' });
    const onlyGrants = await search({ query: 'sign in', kinds: ['economy.grant'] });
    expect(
      onlyGrants.body.hits.every((hit: { event: { kind: string } }) => hit.event.kind === 'economy.grant'),
    ).toBe(true);
    const future = await search({ query: 'sign in', from: '2100-01-01T00:00:00Z' });
    expect(future.body.hits).toEqual([]);
    const byId = await search({ query: ann.userId });
    expect(byId.body.interpreted.identifiers).toEqual([ann.userId]);
    expect(byId.body.hits.map((hit: { event: { kind: string } }) => hit.event.kind).sort()).toEqual([
      'auth.roles_changed',
      'auth.sign_in',
      'economy.grant',
    ]);
  });

  it('refuses bad input with 400 and changes nothing; players get 403 and strangers 401', async () => {
    const empty = await search({ query: '' });
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(empty.body.errors[0].path).toBe('body.query');
    const kinds = await search({ query: 'x', kinds: ['DROP TABLE'] });
    expect([kinds.status, kinds.body.errors[0].path]).toEqual([400, 'body.kinds.0']);
    const range = await search({ query: 'x', from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect([range.status, range.body.code, range.body.detail]).toEqual([
      400,
      'AUDIT_RANGE_INVALID',
      'from must not be after to',
    ]);
    const extra = await search({ query: 'x', drop: true });
    expect(extra.status).toBe(400);
    const player = await ctx.as(ann, 'post', '/admin/brain/search/audit').send({ query: 'x' });
    expect([player.status, player.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    const stranger = await ctx.as(undefined, 'post', '/admin/brain/search/audit').send({ query: 'x' });
    expect([stranger.status, stranger.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('never records secrets: no token, signature or message in any event', async () => {
    await ctx.server.platform.stores.mongo.collection('audit_events').countDocuments();
    const res = await search({ query: 'sign in login', limit: 100 });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(ann.token);
    expect(text).not.toMatch(/0x[0-9a-f]{130}/i);
    expect(text).not.toContain('Sign in to Forge Platform');
  });
});
