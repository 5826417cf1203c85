import { Wallet } from 'ethers';
import request from 'supertest';
import { eventually } from '../../helpers/eventually';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, buildCharacter, signIn, startWorldPlatform } from './worldPlatform';

const SERVICE_TOKEN = 'world-live-service-token-0123456789';

/** What the platform changes in a character while its player is in a room shows in the room at once. */
describe('changes made outside the world reach the live player', () => {
  let server: TestPlatform;
  const adminWallet = Wallet.createRandom();

  beforeAll(async () => {
    server = await startWorldPlatform({
      BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
      ADMIN_ADDRESSES: adminWallet.address,
    });
  });
  afterAll(() => server.stop());

  const as = (player: Player) => ({
    get: (path: string) => request(server.url).get(path).set('Authorization', `Bearer ${player.token}`),
    post: (path: string, body: object) =>
      request(server.url).post(path).set('Authorization', `Bearer ${player.token}`).send(body),
    delete: (path: string) => request(server.url).delete(path).set('Authorization', `Bearer ${player.token}`),
  });
  const characters = () => server.platform.stores.mongo.collection('characters');
  const savedCloth = async (player: Player) =>
    ((await characters().findOne({ userId: player.userId }))?.inventory as Record<string, number>)[
      'village:cloth'
    ] ?? 0;
  const liveCoins = async (player: Player) =>
    (await act(server.url, player, { action: 'look' }).expect(200)).body.player.currencies.soft as number;

  it('takes a listed item out of the live player: an online seller can no longer drop or give it', async () => {
    const ann = await signIn(server.url);
    await buildCharacter(server, ann, { name: 'Ann', inventory: { 'village:cloth': 3 } });
    await act(server.url, ann, { action: 'look' }).expect(200);
    const listed = await as(ann)
      .post('/marketplace/listings', {
        item: 'village:cloth',
        qty: 2,
        price: { currency: 'soft', amount: '5' },
      })
      .expect(201);
    const refused = await act(server.url, ann, { action: 'drop', item: 'cloth', qty: 3 });
    expect(refused.status).toBe(409);
    await act(server.url, ann, { action: 'drop', item: 'cloth', qty: 1 }).expect(200);
    expect(await savedCloth(ann)).toBe(0);
    // Cancelling returns the two bolts to the live player, who can now drop them.
    await as(ann).delete(`/marketplace/listings/${listed.body.id}`).expect(200);
    await act(server.url, ann, { action: 'drop', item: 'cloth', qty: 2 }).expect(200);
    expect(await savedCloth(ann)).toBe(0);
  });

  it('shows coins granted to and transferred out of an online player at once, and never posts them twice', async () => {
    const [ann, bob] = [await signIn(server.url), await signIn(server.url)];
    expect(await liveCoins(ann)).toBe(10);
    await request(server.url)
      .post('/economy/grants')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        user_id: ann.userId,
        currency: 'soft',
        amount: '100',
        reason: 'quest',
        idempotency_key: 'live-grant-0001',
      })
      .expect(201);
    // Shown asynchronously right after the operation (the economy does not wait for the rooms).
    await eventually(() => liveCoins(ann), 110);
    await as(ann)
      .post('/economy/transfer', {
        to_user_id: bob.userId,
        currency: 'soft',
        amount: '105',
        idempotency_key: 'live-transfer-1',
      })
      .expect(201);
    await eventually(() => liveCoins(ann), 5);
    // The room cannot spend coins the account no longer has: bread costs 2, three loaves need 6.
    await act(server.url, ann, { direction: 'south' }, '/mud/move').expect(200);
    await act(server.url, ann, { action: 'buy', item: 'bread' }).expect(200);
    await act(server.url, ann, { action: 'buy', item: 'bread' }).expect(200);
    expect((await act(server.url, ann, { action: 'buy', item: 'bread' })).status).toBe(409);
    const wallet = (await as(ann).get('/economy/wallet').expect(200)).body;
    expect(wallet.soft).toBe('1');
    const admin = await signIn(server.url, adminWallet);
    const audit = await as(admin).get('/admin/economy/audit').expect(200);
    expect(audit.body).toMatchObject({ ok: true, mismatched_accounts: [] });
  });
});
