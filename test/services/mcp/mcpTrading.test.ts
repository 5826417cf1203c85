import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import {
  SERVICE_TOKEN,
  call,
  connect,
  signInPlayer,
  startMcpPlatform,
  textOf,
  type Caller,
} from './mcpPlatform';

/**
 * The economy and marketplace workers through the SDK's own client: a seller lists creator content, a buyer finds it
 * by meaning, reads its wallet, buys and pays, each tool acting as its caller.
 */
describe('MCP gateway: economy and marketplace tools', () => {
  let server: TestPlatform;
  let seller: Caller;
  let buyer: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform();
    [seller, buyer] = await Promise.all([signInPlayer(server.url), signInPlayer(server.url)]);
    await request(server.url)
      .post('/economy/grants')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        user_id: buyer.userId,
        currency: 'soft',
        amount: '1000',
        reason: 'test',
        idempotency_key: 'grant-mcp-1',
      })
      .expect(201);
  });
  afterAll(() => server.stop());

  it('lists, searches the marketplace by meaning, reads the wallet, buys and sees the ledger', async () => {
    const asSeller = await connect(server.url, seller.token);
    const listed = await call(asSeller, 'marketplace_list_item', {
      item: 'content:lantern-map',
      price: { currency: 'soft', amount: '200' },
      title: 'Lantern map of the old mine',
      description: 'A hand-drawn chart of the abandoned mine tunnels, marked with every lantern hook.',
      category: 'content',
      idempotency_key: 'list-lantern-map-1',
    });
    expect(listed.isError).toBeUndefined();
    expect(listed.structuredContent).toMatchObject({ seller_id: seller.userId, state: 'active' });
    const listingId = (listed.structuredContent as { id: string }).id;
    const again = await call(asSeller, 'marketplace_list_item', {
      item: 'content:lantern-map',
      price: { currency: 'soft', amount: '200' },
      title: 'Lantern map of the old mine',
      description: 'A hand-drawn chart of the abandoned mine tunnels, marked with every lantern hook.',
      category: 'content',
      idempotency_key: 'list-lantern-map-1',
    });
    expect(again.structuredContent).toMatchObject({ id: listingId });
    await asSeller.close();

    const asBuyer = await connect(server.url, buyer.token);
    const found = await call(asBuyer, 'marketplace_search', { q: 'chart of the mine tunnels' });
    expect(found.structuredContent).toMatchObject({
      results: [{ listing: { id: listingId, price: { currency: 'soft', amount: '200' } } }],
    });
    expect(textOf(found)).toBe(`1 listings:\n1. Lantern map of the old mine — 200 soft (${listingId})`);
    const wallet = await call(asBuyer, 'economy_wallet');
    expect(wallet.structuredContent).toMatchObject({ soft: '1000', hard: '0', held: '0' });
    expect(textOf(wallet)).toBe('Soft 1000, hard 0, held 0.');

    const buy = { listing_id: listingId, idempotency_key: 'buy-lantern-map-1' };
    const bought = await call(asBuyer, 'marketplace_buy', buy);
    expect(bought.structuredContent).toMatchObject({
      listing_id: listingId,
      buyer_id: buyer.userId,
      seller_received: '190',
      fee: '10',
      state: 'delivered',
    });
    // A retry with the same key replays the sale and pays nothing more.
    expect((await call(asBuyer, 'marketplace_buy', buy)).structuredContent).toEqual(bought.structuredContent);
    expect((await call(asBuyer, 'economy_wallet')).structuredContent).toMatchObject({ soft: '800' });
    const ledger = await call(asBuyer, 'economy_ledger', { currency: 'soft' });
    expect(ledger.structuredContent).toMatchObject({
      entries: [
        { kind: 'purchase', delta: '-200', balance_after: '800' },
        { kind: 'grant', delta: '1000' },
      ],
      next_cursor: null,
    });
    const sold = await call(asBuyer, 'marketplace_listing', { listing_id: listingId });
    expect(sold.structuredContent).toMatchObject({ state: 'sold' });
    await asBuyer.close();
  });

  it('pays another player once per idempotency key, and refuses what the wallet cannot cover', async () => {
    const asBuyer = await connect(server.url, buyer.token);
    const pay = {
      to_user_id: seller.userId,
      currency: 'soft',
      amount: '50',
      idempotency_key: 'tip-seller-0001',
    };
    const paid = await call(asBuyer, 'economy_transfer', pay);
    expect(paid.structuredContent).toMatchObject({ from_user_id: buyer.userId, amount: '50' });
    const replay = await call(asBuyer, 'economy_transfer', pay);
    expect(replay.structuredContent).toEqual(paid.structuredContent);
    const tooMuch = await call(asBuyer, 'economy_transfer', {
      ...pay,
      amount: '999999',
      idempotency_key: 'tip-seller-0002',
    });
    expect(tooMuch).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'INSUFFICIENT_FUNDS' } },
    });
    const noKey = await call(asBuyer, 'economy_transfer', {
      to_user_id: seller.userId,
      currency: 'soft',
      amount: 1,
    });
    expect(textOf(noKey)).toMatch(/^TOOL_INVALID_ARGUMENTS: .*idempotency_key/);
    await asBuyer.close();
  });

  it('lets a guest read its wallet but move nothing out (identity tier 1, as the routes)', async () => {
    const guest = (await request(server.url).post('/auth/guest').expect(201)).body as { token: string };
    const asGuest = await connect(server.url, guest.token);
    expect((await call(asGuest, 'economy_wallet')).structuredContent).toMatchObject({ soft: '0' });
    const pay = await call(asGuest, 'economy_transfer', {
      to_user_id: seller.userId,
      currency: 'soft',
      amount: '1',
      idempotency_key: 'guest-pays-0001',
    });
    expect(textOf(pay)).toBe(
      'TOOL_FORBIDDEN: You may not call economy_transfer: it needs identity tier 1 (Registered) or above; you are ' +
        'at tier 0 (Anonymous).',
    );
    await asGuest.close();
  });

  it('lets the service token search the marketplace but not act as a wallet owner', async () => {
    const asService = await connect(server.url, SERVICE_TOKEN);
    const search = await call(asService, 'marketplace_search', { q: 'lantern', semantic: false });
    expect(search.isError).toBeUndefined();
    expect(textOf(await call(asService, 'economy_wallet'))).toBe(
      'TOOL_FORBIDDEN: You may not call economy_wallet: it acts as a signed-in user, and the service token is not one.',
    );
    await asService.close();
  });
});
