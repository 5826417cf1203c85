import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, signIn } from '../mud/worldPlatform';
import { marketClient, newKey, startMarketPlatform } from './marketPlatform';

describe('marketplace: listings with escrow, purchases with the 95/5 split, companions refused', () => {
  let server: TestPlatform;
  let admin: Player;
  let market: ReturnType<typeof marketClient>;

  beforeAll(async () => {
    ({ server, admin } = await startMarketPlatform());
    market = marketClient(server);
  });
  afterAll(() => server.stop());

  it('escrows an online seller’s items, sells them once, pays 95% to the seller and 5% to the platform', async () => {
    const ann = await signIn(server.url);
    const bob = await signIn(server.url);
    const cara = await signIn(server.url);
    await market.act(ann, { direction: 'east' }, '/mud/move').expect(200);
    await market.act(ann, { action: 'take', item: 'cloth' }).expect(200);
    expect(await market.holding(ann, 'village:cloth')).toBe(3);

    const listed = await market.list(ann, {
      item: 'village:cloth',
      qty: 2,
      price: { currency: 'soft', amount: '50' },
    });
    expect(listed.status).toBe(201);
    expect(listed.body).toMatchObject({
      seller_id: ann.userId,
      source: 'inventory',
      item: 'village:cloth',
      qty: 2,
      state: 'active',
      price: { currency: 'soft', amount: '50' },
    });
    expect(await market.holding(ann, 'village:cloth')).toBe(1);
    // Ann's room still shows 3 bolts; its next save must not put the escrowed ones back.
    await market.act(ann, { direction: 'west' }, '/mud/move').expect(200);
    expect(await market.holding(ann, 'village:cloth')).toBe(1);

    await market.fund(bob, 100);
    const key = newKey('buy');
    const bought = await market.buy(bob, listed.body.id, key);
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({
      state: 'delivered',
      fee: '2',
      seller_received: '48',
      price: { amount: '50' },
    });
    const again = await market.buy(bob, listed.body.id, key);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    await market.fund(cara, 100);
    const late = await market.buy(cara, listed.body.id);
    expect([late.status, late.body.code]).toEqual([409, 'LISTING_SOLD']);
    expect((await market.wallet(bob)).soft).toBe('50');
    expect((await market.wallet(cara)).soft).toBe('100');
    expect((await market.wallet(ann)).soft).toBe('58');
    expect(await market.holding(bob, 'village:cloth')).toBe(2);
    // Bob never played: his first character's saves keep the delivered bolts.
    await market.act(bob, { action: 'look' }).expect(200);
    expect(await market.holding(bob, 'village:cloth')).toBe(2);
    const audit = await market.audit(admin);
    expect(audit).toMatchObject({ ok: true, soft: { fees: expect.any(String) } });
    expect(Number(audit.soft.fees)).toBeGreaterThanOrEqual(2);
  });

  it('refuses companions, unknown items, missing items, own purchases and short funds, changing nothing', async () => {
    const ann = await signIn(server.url);
    const bob = await signIn(server.url);
    const companion = await market.list(ann, {
      item: 'forest:pip',
      price: { currency: 'soft', amount: '5' },
    });
    expect([companion.status, companion.body.code]).toEqual([409, 'COMPANION_NOT_PURCHASABLE']);
    const unknown = await market.list(ann, {
      item: 'village:unicorn',
      price: { currency: 'soft', amount: '5' },
    });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'UNKNOWN_ITEM']);
    const missing = await market.list(ann, {
      item: 'village:bread',
      price: { currency: 'soft', amount: '5' },
    });
    expect([missing.status, missing.body.code]).toEqual([409, 'ITEM_NOT_IN_INVENTORY']);
    const guide = await market.list(ann, {
      item: 'content:ann-guide',
      price: { currency: 'soft', amount: '30' },
      title: "Ann's guide",
      description: 'Where the rats hide',
    });
    expect(guide.status).toBe(201);
    const own = await market.buy(ann, guide.body.id);
    expect([own.status, own.body.code]).toEqual([409, 'CANNOT_BUY_OWN_LISTING']);
    const poor = await market.buy(bob, guide.body.id);
    expect([poor.status, poor.body.code]).toEqual([409, 'INSUFFICIENT_FUNDS']);
    expect(
      (await request(server.url).get(`/marketplace/listings/${guide.body.id}`).expect(200)).body.state,
    ).toBe('active');
    const notMine = await market.cancel(bob, guide.body.id);
    expect([notMine.status, notMine.body.code]).toEqual([403, 'NOT_LISTING_SELLER']);
    const cancelled = await market.cancel(ann, guide.body.id);
    expect([cancelled.status, cancelled.body.state]).toEqual([200, 'cancelled']);
    const gone = await market.buy(bob, guide.body.id);
    expect([gone.status, gone.body.code]).toEqual([409, 'LISTING_NOT_ACTIVE']);
    const absent = await request(server.url).get('/marketplace/listings/aaaaaaaaaaaaaaaaaaaaaaaa');
    expect([absent.status, absent.body.code]).toEqual([404, 'LISTING_NOT_FOUND']);
  });

  it('returns an escrowed item to the seller when the listing is cancelled', async () => {
    const ann = await signIn(server.url);
    await market.act(ann, { action: 'take', item: 'stick' }).expect(200);
    const held = await market.holding(ann, 'village:stick');
    expect(held).toBeGreaterThan(0);
    const listed = await market.list(ann, {
      item: 'village:stick',
      qty: held,
      price: { currency: 'soft', amount: '9' },
    });
    expect(listed.status).toBe(201);
    expect(await market.holding(ann, 'village:stick')).toBe(0);
    await market.act(ann, { action: 'look' }).expect(200);
    expect(await market.holding(ann, 'village:stick')).toBe(0);
    await market.cancel(ann, listed.body.id).expect(200);
    expect(await market.holding(ann, 'village:stick')).toBe(held);
    await market.act(ann, { action: 'look' }).expect(200);
    expect(await market.holding(ann, 'village:stick')).toBe(held);
  });

  it('sells a listing to exactly one of 50 concurrent buyers; the others pay nothing', async () => {
    const seller = await signIn(server.url);
    const listed = await market.list(seller, {
      item: 'content:map-of-caves',
      price: { currency: 'soft', amount: '20' },
      title: 'Cave map',
    });
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signIn(server.url)));
    await Promise.all(buyers.map((buyer) => market.fund(buyer, 20)));
    const results = await Promise.all(buyers.map((buyer) => market.buy(buyer, listed.body.id)));
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    expect(results.filter((res) => res.status === 409 && res.body.code === 'LISTING_SOLD')).toHaveLength(49);
    const balances = await Promise.all(buyers.map(async (buyer) => (await market.wallet(buyer)).soft));
    expect(balances.filter((soft) => soft === '0')).toHaveLength(1);
    expect(balances.filter((soft) => soft === '20')).toHaveLength(49);
    expect((await market.wallet(seller)).soft).toBe('19');
    expect((await market.audit(admin)).ok).toBe(true);
  }, 180_000);

  it('creates one listing per idempotency key: a retry answers it without taking the item again', async () => {
    const ann = await signIn(server.url);
    await market.act(ann, { direction: 'east' }, '/mud/move').expect(200);
    await market.act(ann, { action: 'take', item: 'rope' }).expect(200);
    const held = await market.holding(ann, 'village:rope');
    const body = { item: 'village:rope', qty: 1, price: { currency: 'soft', amount: '9' } };
    const key = newKey('list');
    const first = await market.list(ann, { ...body, idempotency_key: key });
    expect([first.status, first.headers['idempotent-replayed']]).toEqual([201, undefined]);
    const retry = await market.list(ann, { ...body, idempotency_key: key });
    expect([retry.status, retry.headers['idempotent-replayed'], retry.body.id]).toEqual([
      201,
      'true',
      first.body.id,
    ]);
    expect(await market.holding(ann, 'village:rope')).toBe(held - 1);
    const other = await market.list(ann, { ...body, qty: 2, idempotency_key: key });
    expect([other.status, other.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(await market.holding(ann, 'village:rope')).toBe(held - 1);
  });
});
