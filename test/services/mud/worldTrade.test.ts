import request from 'supertest';
import { eventually } from '../../helpers/eventually';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, buildCharacter, signIn, startWorldPlatform } from './worldPlatform';

const SERVICE_TOKEN = 'world-trade-service-token-0123456789';

/** The marketplace from inside the world: `trade` through the broker in the village market. */
describe('trade through a broker NPC', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startWorldPlatform({ BRAIN_SERVICE_TOKEN: SERVICE_TOKEN });
  });
  afterAll(() => server.stop());

  const command = (player: Player, line: string) => act(server.url, player, { action: 'command', line });
  const lastText = (res: request.Response) => (res.body.events as Array<{ text: string }>).at(-1)?.text;
  const listedId = (res: request.Response) =>
    (res.body.events as Array<{ data: { listing?: { id: string } } }>).at(-1)?.data.listing?.id;
  const coins = async (player: Player) =>
    (await act(server.url, player, { action: 'look' }).expect(200)).body.player.currencies.soft as number;

  it('lists, browses and buys between players in the world, paying once and moving the goods live', async () => {
    const [ann, bob] = [await signIn(server.url), await signIn(server.url)];
    await buildCharacter(server, ann, { name: 'Ann', inventory: { 'village:cloth': 3 } });
    const away = await command(ann, 'trade list 2 cloth for 40');
    expect([away.status, away.body.code]).toEqual([409, 'NO_BROKER']);
    await command(ann, 'e').expect(200);
    const listed = await command(ann, 'trade list 2 cloth for 40').expect(200);
    expect(lastText(listed)).toBe(
      'Ledger-keeper Odo writes it in the ledger: bolt of cloth x2 for 40 coins. It is held in escrow until it sells or you cancel it.',
    );
    expect((await command(ann, 'drop 3 cloth')).status).toBe(409);

    await request(server.url)
      .post('/economy/grants')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({
        user_id: bob.userId,
        currency: 'soft',
        amount: '90',
        reason: 'test',
        idempotency_key: 'trade-grant-1',
      })
      .expect(201);
    await command(bob, 'e').expect(200);
    const browsed = await command(bob, 'trade browse cloth').expect(200);
    expect(lastText(browsed)).toBe(
      'Ledger-keeper Odo reads out what is on offer for "cloth":\n  1. bolt of cloth x2: 40 coins',
    );
    const bought = await command(bob, 'trade buy 1').expect(200);
    expect(lastText(bought)).toBe(
      'You buy bolt of cloth x2 for 40 coins through Ledger-keeper Odo. It is in your pack.',
    );
    expect(bought.body.player.currencies.soft).toBe(100 - 40);
    await command(bob, 'drop 2 cloth').expect(200);
    // The seller's live purse shows the 95% at once (her saved character had no coins).
    await eventually(() => coins(ann), 38);

    // Bob repeating the command replays his purchase; he pays once. Anyone else finds it sold.
    const again = await command(bob, 'trade buy 1').expect(200);
    expect(lastText(again)).toBe(lastText(bought));
    expect(await coins(bob)).toBe(60);
    const dan = await signIn(server.url);
    await buildCharacter(server, dan, { roomRef: 'village:market' });
    await command(dan, 'trade browse cloth').expect(200);
    const late = await command(dan, `trade buy ${listedId(listed)}`);
    expect([late.status, late.body.code]).toEqual([409, 'LISTING_SOLD']);
    const nothing = await command(bob, 'trade browse');
    expect(lastText(nothing)).toBe('Ledger-keeper Odo turns the pages: nothing today.');
  });

  it('cancels a listing from the world and hands the goods back', async () => {
    const cara = await signIn(server.url);
    await buildCharacter(server, cara, {
      name: 'Cara',
      roomRef: 'village:market',
      inventory: { 'village:rope': 1 },
    });
    await command(cara, 'trade list rope for 7').expect(200);
    const mine = await command(cara, 'trade mine').expect(200);
    expect(lastText(mine)).toBe(
      'Ledger-keeper Odo reads out what is on offer in your name:\n  1. coil of rope: 7 coins',
    );
    const cancelled = await command(cara, 'trade cancel 1').expect(200);
    expect(lastText(cancelled)).toBe(
      'Ledger-keeper Odo strikes coil of rope from the ledger and hands it back to you.',
    );
    await command(cara, 'drop rope').expect(200);
    const bad = await command(cara, 'trade cancel 9');
    expect([bad.status, bad.body.code]).toEqual([409, 'NO_SUCH_THING']);
  });
});
