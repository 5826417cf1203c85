import { Wallet } from 'ethers';
import type { MarketCore } from '../../../services/marketplace/marketCore';
import type { MarketSaleRecord } from '../../../models/MarketSale';
import { saleSteps } from '../../../services/marketplace/purchases';
import type { MarketplaceArea } from '../../../services/marketplace';
import { worldMarket } from '../../../services/marketplace/worldMarket';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { type Player, signIn } from '../mud/worldPlatform';
import { marketParts } from './marketParts';
import { MARKET_SERVICE_TOKEN, marketClient, newKey } from './marketPlatform';

/** A gate the test opens by hand. */
function buildGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The parts of a problem answer a replay must repeat exactly (request id and instance aside). */
const refusal = (res: { status: number; body: Record<string, unknown> }) => {
  const { requestId: _id, instance: _instance, ...rest } = res.body;
  return { status: res.status, body: rest };
};

/**
 * An idempotency key stores its outcome, refusals included, before it answers: a buy refused 409 LISTING_SOLD (the
 * listing reserved by a buyer whose payment then fails) is answered the same refusal when retried with the same key,
 * even once the listing is back on sale, and never becomes a purchase; replayed errors say `Idempotent-Replayed`.
 */
describe('marketplace: a refusal is the key’s answer for good', () => {
  let server: TestPlatform;
  let market: ReturnType<typeof marketClient>;
  let admin: Player;
  let area: MarketplaceArea;
  const adminWallet = Wallet.createRandom();

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', BRAIN_SERVICE_TOKEN: MARKET_SERVICE_TOKEN, ADMIN_ADDRESSES: adminWallet.address },
      async (context) => {
        const handles = await marketParts(context);
        area = handles.market;
        return handles.parts;
      },
    );
    market = marketClient(server);
    admin = await signIn(server.url, adminWallet);
  });
  afterAll(() => server.stop());
  afterEach(() => jest.restoreAllMocks());

  it('two buyers of one listing, one unable to pay: the other’s LISTING_SOLD replays as LISTING_SOLD', async () => {
    const [seller, poor, rich] = [
      await signIn(server.url),
      await signIn(server.url),
      await signIn(server.url),
    ];
    await market.fund(rich, 100);
    const listing = (
      await market
        .list(seller, { item: 'content:tide-tables', price: { currency: 'soft', amount: '50' } })
        .expect(201)
    ).body;

    // The poor buyer reserves the listing; their payment waits at the gate.
    const gate = buildGate();
    const reserved = buildGate();
    const charge = saleSteps.charge;
    jest.spyOn(saleSteps, 'charge').mockImplementation(async (core: MarketCore, sale: MarketSaleRecord) => {
      if (sale.buyer === poor.userId) {
        reserved.open();
        await gate.opened;
      }
      return charge(core, sale);
    });
    const poorKey = newKey('poor');
    const poorBuy = market.buy(poor, listing.id, poorKey).then((res) => res);
    await reserved.opened;

    const richKey = newKey('rich');
    const first = await market.buy(rich, listing.id, richKey);
    expect(refusal(first)).toEqual({
      status: 409,
      body: {
        type: '/problems/listing-sold',
        title: 'Conflict',
        status: 409,
        detail: `Listing ${listing.id} is sold`,
        code: 'LISTING_SOLD',
      },
    });
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // The poor buyer cannot pay: the listing goes back on sale.
    gate.open();
    const poorFirst = await poorBuy;
    expect([poorFirst.status, poorFirst.body.code]).toEqual([409, 'INSUFFICIENT_FUNDS']);

    // The rich buyer's retry with the same key: the same refusal, replayed, nothing charged.
    const retry = await market.buy(rich, listing.id, richKey);
    expect(refusal(retry)).toEqual(refusal(first));
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await market.wallet(rich)).soft).toBe('100');

    // Funded now, the poor buyer's key still answers its refusal; a new key is a new purchase.
    await market.fund(poor, 100);
    const poorRetry = await market.buy(poor, listing.id, poorKey);
    expect(refusal(poorRetry)).toEqual(refusal(poorFirst));
    expect(poorRetry.headers['idempotent-replayed']).toBe('true');
    expect((await market.wallet(poor)).soft).toBe('100');
    const bought = await market.buy(rich, listing.id, newKey('rich'));
    expect([bought.status, bought.body.state, bought.headers['idempotent-replayed']]).toEqual([
      201,
      'delivered',
      undefined,
    ]);
    expect((await market.wallet(rich)).soft).toBe('50');
    expect(await market.audit(admin)).toMatchObject({ ok: true });
  });

  it('replays the other refusals the listing decides (own listing, cancelled) and keeps the key to its listing', async () => {
    const [seller, buyer] = [await signIn(server.url), await signIn(server.url)];
    await market.fund(buyer, 100);
    const list = async (slug: string) =>
      (
        await market
          .list(seller, { item: `content:${slug}`, price: { currency: 'soft', amount: '10' } })
          .expect(201)
      ).body.id as string;
    const own = await list('own-notes');
    const ownKey = newKey('own');
    const ownFirst = await market.buy(seller, own, ownKey);
    expect([ownFirst.status, ownFirst.body.code]).toEqual([409, 'CANNOT_BUY_OWN_LISTING']);
    const ownAgain = await market.buy(seller, own, ownKey);
    expect([refusal(ownAgain), ownAgain.headers['idempotent-replayed']]).toEqual([refusal(ownFirst), 'true']);

    const cancelled = await list('withdrawn-notes');
    await market.cancel(seller, cancelled).expect(200);
    const key = newKey('cancelled');
    const refused = await market.buy(buyer, cancelled, key);
    expect([refused.status, refused.body.code]).toEqual([409, 'LISTING_NOT_ACTIVE']);
    expect(refusal(await market.buy(buyer, cancelled, key))).toEqual(refusal(refused));
    // The key belongs to that listing now: with another one it is a conflict, and with a missing one too.
    const other = await list('other-notes');
    const conflict = await market.buy(buyer, other, key);
    expect([conflict.status, conflict.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    const missing = await market.buy(buyer, '0123456789abcdef01234567', key);
    expect([missing.status, missing.body.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect((await market.wallet(buyer)).soft).toBe('100');
  });

  it('lets a player refused in the world try again with a new key, and never pay twice', async () => {
    const [seller, buyer] = [await signIn(server.url), await signIn(server.url)];
    const id = (
      await market
        .list(seller, { item: 'content:star-charts', price: { currency: 'soft', amount: '30' } })
        .expect(201)
    ).body.id as string;
    const broker = worldMarket(area.core);
    await expect(broker.buy(buyer.userId, id)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await market.fund(buyer, 100);
    await expect(broker.buy(buyer.userId, id)).resolves.toMatchObject({ listing: { id } });
    await expect(broker.buy(buyer.userId, id)).resolves.toMatchObject({ listing: { id } });
    expect((await market.wallet(buyer)).soft).toBe('70');
    const sales = await area.core.sales.find({ buyer: buyer.userId }).sort({ createdAt: 1 }).lean();
    expect(sales.map((sale) => [sale._id.split(':').slice(2).join(':'), sale.state])).toEqual([
      [`world:${id}`, 'failed'],
      [`world:${id}:1`, 'delivered'],
    ]);
  });
});
