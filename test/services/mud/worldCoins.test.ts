import { Wallet } from 'ethers';
import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform } from './worldPlatform';

const SERVICE_TOKEN = 'world-coins-service-token-0123456789';

describe("the world's coins are the soft currency of the player's economy account", () => {
  let server: TestPlatform;
  const adminWallet = Wallet.createRandom();

  beforeAll(async () => {
    server = await startWorldPlatform({
      BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
      ADMIN_ADDRESSES: adminWallet.address,
    });
  });
  afterAll(() => server.stop());

  const wallet = async (player: Player) =>
    (
      await request(server.url)
        .get('/economy/wallet')
        .set('Authorization', `Bearer ${player.token}`)
        .expect(200)
    ).body;
  const ledgerKinds = async (player: Player) =>
    (
      await request(server.url)
        .get('/economy/ledger')
        .set('Authorization', `Bearer ${player.token}`)
        .expect(200)
    ).body.entries.map((e: { kind: string; delta: string }) => `${e.kind} ${e.delta}`);
  const grant = (player: Player, amount: number, key: string) =>
    request(server.url)
      .post('/economy/grants')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        user_id: player.userId,
        currency: 'soft',
        amount: String(amount),
        reason: 'quest',
        idempotency_key: key,
      })
      .expect(201);

  it('posts what the world pays and takes as world ledger lines, one per save, and loads the account balance', async () => {
    const ann = await signIn(server.url);
    const moved = await act(server.url, ann, { direction: 'south' }, '/mud/move').expect(200);
    expect(moved.body.player.currencies.soft).toBe(10);
    expect(await wallet(ann)).toMatchObject({ soft: '10', held: '0' });
    const bought = await act(server.url, ann, { action: 'buy', item: 'bread' }).expect(200);
    expect(bought.body.player.currencies.soft).toBe(8);
    expect((await wallet(ann)).soft).toBe('8');
    await grant(ann, 100, 'world-coins-grant-1');
    expect((await wallet(ann)).soft).toBe('108');
    await act(server.url, ann, { action: 'buy', item: 'bread' }).expect(200);
    // The room spent 2 of the coins it knew of; the account keeps the grant as well.
    expect((await wallet(ann)).soft).toBe('106');
    expect(await ledgerKinds(ann)).toEqual(['world -2', 'grant 100', 'world -2', 'world 10']);
    const admin = await signIn(server.url, adminWallet);
    const audit = await request(server.url)
      .get('/admin/economy/audit')
      .set('Authorization', `Bearer ${admin.token}`);
    expect(audit.body).toMatchObject({ ok: true, mismatched_accounts: [] });
  });

  it("migrates a character saved before the economy once: its coins become the account's balance", async () => {
    const bob = await signIn(server.url);
    const characters = server.platform.stores.mongo.collection('characters');
    await characters.insertOne({
      userId: bob.userId,
      name: 'Old Bob',
      roomRef: 'village:square',
      health: 30,
      maxHealth: 30,
      level: 3,
      xp: 120,
      currencies: { soft: 250, hard: 0 },
      inventory: {},
      equipment: {},
      skills: {},
      quests: {},
      relations: {},
      companion: null,
      updatedAt: Date.now(),
    });
    const looked = await act(server.url, bob, { action: 'look' }).expect(200);
    expect(looked.body.player.currencies.soft).toBe(250);
    await act(server.url, bob, { direction: 'south' }, '/mud/move').expect(200);
    expect((await wallet(bob)).soft).toBe('250');
    expect(await ledgerKinds(bob)).toEqual(['migration 250']);
    const saved = await characters.findOne({ userId: bob.userId });
    expect(saved?.coinSync).toEqual({ base: 250, seq: 0, pending: null });
  });
});
