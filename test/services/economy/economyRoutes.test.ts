import request from 'supertest';
import {
  ECONOMY_SERVICE_TOKEN,
  as,
  fund,
  newKey,
  signUp,
  startEconomyPlatform,
  type EconomyPlatform,
  type EconomyUser,
} from './economyPlatform';

describe('economy routes: wallet, ledger, transfer, grants, audit', () => {
  let platform: EconomyPlatform;
  let url: string;
  let ann: EconomyUser;
  let bob: EconomyUser;
  let admin: EconomyUser;

  beforeAll(async () => {
    platform = await startEconomyPlatform();
    url = platform.server.url;
    admin = await signUp(url, platform.admin);
  });
  afterAll(() => platform.stop());
  beforeEach(async () => {
    ann = await signUp(url);
    bob = await signUp(url);
  });

  const wallet = async (user: EconomyUser) =>
    (await as(url, user.token).get('/economy/wallet').expect(200)).body;
  const audit = async () => (await as(url, admin.token).get('/admin/economy/audit').expect(200)).body;

  it('answers zero balances for a new user and 401 without a session', async () => {
    expect(await wallet(ann)).toEqual({ soft: '0', hard: '0', held: '0', updated_at: null });
    const res = await request(url).get('/economy/wallet');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it('lets a guest (tier 0) read its wallet but move no coins out (403 TIER_REQUIRED)', async () => {
    const guest = (await request(url).post('/auth/guest').expect(201)).body.token as string;
    await as(url, guest).get('/economy/wallet').expect(200);
    const res = await as(url, guest).post('/economy/transfer', {
      to_user_id: ann.userId,
      currency: 'soft',
      amount: '1',
      idempotency_key: newKey('guest'),
    });
    expect([res.status, res.body.code]).toEqual([403, 'TIER_REQUIRED']);
  });

  it('grants with the service token, moves coins between players and records every change in the ledger', async () => {
    await fund(url, ann.userId, 500);
    const key = newKey('pay');
    const body = {
      to_user_id: bob.userId,
      currency: 'soft',
      amount: '120',
      memo: 'for the sword',
      idempotency_key: key,
    };
    const paid = await as(url, ann.token).post('/economy/transfer', body);
    expect(paid.status).toBe(201);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
    expect(paid.body).toEqual({
      transfer_id: `transfer:${ann.userId}:${key}`,
      from_user_id: ann.userId,
      to_user_id: bob.userId,
      currency: 'soft',
      amount: '120',
      memo: 'for the sword',
      balance_after: '380',
      at: expect.any(String),
    });
    expect((await wallet(ann)).soft).toBe('380');
    expect((await wallet(bob)).soft).toBe('120');
    const ledger = (await as(url, ann.token).get('/economy/ledger').expect(200)).body;
    expect(
      ledger.entries.map((e: { kind: string; delta: string; balance_after: string }) => [
        e.kind,
        e.delta,
        e.balance_after,
      ]),
    ).toEqual([
      ['transfer', '-120', '380'],
      ['grant', '500', '500'],
    ]);
    expect(ledger.next_cursor).toBeNull();
    expect((await audit()).ok).toBe(true);
  });

  it('replays a transfer with the same key without moving coins again, and refuses the key with another body', async () => {
    await fund(url, ann.userId, 100);
    const body = { to_user_id: bob.userId, currency: 'soft', amount: '30', idempotency_key: newKey('pay') };
    const first = await as(url, ann.token).post('/economy/transfer', body).expect(201);
    const again = await as(url, ann.token).post('/economy/transfer', body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const changed = await as(url, ann.token).post('/economy/transfer', { ...body, amount: '31' });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await wallet(ann)).soft).toBe('70');
    expect((await wallet(bob)).soft).toBe('30');
  });

  it('takes the key from the Idempotency-Key header too, and refuses a request without one', async () => {
    await fund(url, ann.userId, 50);
    const key = newKey('header');
    const send = () =>
      as(url, ann.token)
        .post('/economy/transfer', { to_user_id: bob.userId, currency: 'soft', amount: '5' })
        .set('Idempotency-Key', key);
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([
      201,
      'true',
      first.body,
    ]);
    const missing = await as(url, ann.token).post('/economy/transfer', {
      to_user_id: bob.userId,
      currency: 'soft',
      amount: '5',
    });
    expect([missing.status, missing.body.errors]).toEqual([
      400,
      [{ path: 'body.idempotency_key', message: 'required (or the Idempotency-Key header)' }],
    ]);
    expect((await wallet(ann)).soft).toBe('45');
  });

  it('refuses overdrafts, self-transfers, unknown recipients and bad input, changing nothing', async () => {
    await fund(url, ann.userId, 10);
    const pay = (body: object) =>
      as(url, ann.token).post('/economy/transfer', {
        currency: 'soft',
        idempotency_key: newKey('pay'),
        ...body,
      });
    const shortKey = newKey('short');
    const short = await pay({ to_user_id: bob.userId, amount: '11', idempotency_key: shortKey });
    expect([short.status, short.body.code, short.body.detail, short.headers['idempotent-replayed']]).toEqual([
      409,
      'INSUFFICIENT_FUNDS',
      'The spendable soft balance 10 does not cover 11',
      undefined,
    ]);
    // The refusal is the key's answer: a retry replays it (and says so) rather than paying.
    const shortAgain = await pay({ to_user_id: bob.userId, amount: '11', idempotency_key: shortKey });
    expect([shortAgain.status, shortAgain.body.detail, shortAgain.headers['idempotent-replayed']]).toEqual([
      409,
      short.body.detail,
      'true',
    ]);
    const self = await pay({ to_user_id: ann.userId, amount: '1' });
    expect([self.status, self.body.code]).toEqual([409, 'TRANSFER_TO_SELF']);
    const nobody = await pay({ to_user_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', amount: '1' });
    expect([nobody.status, nobody.body.code]).toEqual([404, 'RECIPIENT_NOT_FOUND']);
    const bad = await pay({ to_user_id: bob.userId, amount: '-5', currency: 'gold' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.amount',
      'body.currency',
    ]);
    expect((await wallet(ann)).soft).toBe('10');
    expect((await wallet(bob)).soft).toBe('0');
  });

  it('lets only the service token or an admin grant; grants to a linked address credit its user', async () => {
    const grant = (token: string, body: object) =>
      as(url, token).post('/economy/grants', {
        currency: 'hard',
        amount: '5',
        reason: 'quest reward',
        idempotency_key: newKey('grant'),
        ...body,
      });
    const refused = await grant(ann.token, { user_id: ann.userId });
    expect([refused.status, refused.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    const byAdmin = await grant(admin.token, { user_id: ann.userId });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({
      account: `user:${ann.userId}`,
      currency: 'hard',
      amount: '5',
      balance_after: '5',
    });
    const byAddress = await grant(ECONOMY_SERVICE_TOKEN, { address: ann.wallet.address.toLowerCase() });
    expect(byAddress.body.account).toBe(`user:${ann.userId}`);
    expect((await wallet(ann)).hard).toBe('10');
    const both = await grant(ECONOMY_SERVICE_TOKEN, { user_id: ann.userId, address: ann.wallet.address });
    expect(both.status).toBe(400);
    const nobody = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const unknown = await grant(ECONOMY_SERVICE_TOKEN, { user_id: nobody });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'RECIPIENT_NOT_FOUND']);
    expect(await platform.area.economy.core.accounts.exists({ _id: `user:${nobody}` })).toBeNull();
  });

  it('pages the ledger with a cursor and filters by currency', async () => {
    for (let i = 0; i < 3; i += 1) await fund(url, ann.userId, i + 1);
    await fund(url, ann.userId, 7, 'hard');
    const first = (await as(url, ann.token).get('/economy/ledger?currency=soft&limit=2').expect(200)).body;
    expect(first.entries.map((e: { delta: string }) => e.delta)).toEqual(['3', '2']);
    const next = (
      await as(url, ann.token)
        .get(`/economy/ledger?currency=soft&limit=2&cursor=${first.next_cursor}`)
        .expect(200)
    ).body;
    expect(next.entries.map((e: { delta: string }) => e.delta)).toEqual(['1']);
    expect(next.next_cursor).toBeNull();
  });

  it('shows the audit to admins only, with the conservation figures', async () => {
    const denied = await as(url, ann.token).get('/admin/economy/audit');
    expect([denied.status, denied.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    await fund(url, ann.userId, 40);
    const report = await audit();
    expect(report).toMatchObject({ ok: true, mismatched_accounts: [], pending_operations: 0 });
    expect(report.hard).toMatchObject({ cap: '21000000', within_cap: true, ok: true });
    const soft = report.soft;
    expect(BigInt(soft.balances) + BigInt(soft.holds) + BigInt(soft.fees) + BigInt(soft.decayed)).toBe(
      BigInt(soft.minted) - BigInt(soft.burned),
    );
  });
});
