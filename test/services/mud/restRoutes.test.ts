import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform, textsOf } from './worldPlatform';

describe('world REST routes: POST /mud/move, POST /mud/action, GET /mud/spawns/status', () => {
  let server: TestPlatform;
  let ann: Player;

  beforeAll(async () => {
    server = await startWorldPlatform();
  });
  afterAll(() => server.stop());
  beforeEach(async () => {
    ann = await signIn(server.url);
  });

  const inventoryText = async (player: Player) => {
    const res = await act(server.url, player, { action: 'inventory' }).expect(200);
    return res.body.events.find((e: { type: string }) => e.type === 'inventory').text as string;
  };

  it('moves a new character from the start room and presents the result', async () => {
    const res = await act(server.url, ann, { direction: 'east' }, '/mud/move');
    expect(res.status).toBe(200);
    const name = `Traveller-${ann.userId.slice(-6)}`;
    expect(res.body).toEqual({
      user_id: ann.userId,
      area_id: 'village',
      room: 'village:market',
      player: {
        name,
        room: 'village:market',
        status: 'idle',
        health: 30,
        max_health: 30,
        level: 1,
        xp: 0,
        currencies: { soft: 10, hard: 0 },
      },
      events: [
        {
          type: 'room.look',
          channel: 'room',
          text: expect.stringMatching(/^Market Row\n/),
          data: {
            room: expect.objectContaining({ ref: 'village:market', exits: ['west', 'north', 'east'] }),
            // The player's neighbourhood map rides along with every room description (issue 39).
            map: expect.objectContaining({
              area: 'Thornwick Village',
              areaId: 'village',
              here: expect.any(Number),
            }),
            // Until the first quest is taken, a room description points a newcomer at the tutorial (issue 39).
            hint: 'New here? Type "tutorial" for a hint.',
          },
        },
      ],
    });
  });

  it('runs actions: take, craft (atomically), and refuses a craft without ingredients', async () => {
    await act(server.url, ann, { direction: 'east' }, '/mud/move').expect(200);
    const took = await act(server.url, ann, { action: 'take', item: 'cloth' }).expect(200);
    expect(textsOf(took.body.events)).toContain('You take bolt of cloth x3.');
    const crafted = await act(server.url, ann, { action: 'craft', recipe: 'bandage' }).expect(200);
    // Earlier events around the player (a hen wandering in) may come first; the craft's own is last.
    expect(textsOf(crafted.body.events).at(-1)).toBe('You craft linen bandage.');

    const refused = await act(server.url, ann, { action: 'craft', recipe: 'bandage' });
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({
      type: '/problems/missing-ingredients',
      status: 409,
      code: 'MISSING_INGREDIENTS',
      detail: 'You need 1 more bolt of cloth.',
    });
    expect(await inventoryText(ann)).toBe(
      'You carry: bolt of cloth, linen bandage.\nEquipped: nothing.\nHealth 30/30. Coins: 10. Gems: 0.',
    );
  });

  it('answers 409 with the world’s reason and changes nothing', async () => {
    const res = await act(server.url, ann, { direction: 'up' }, '/mud/move');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'NO_EXIT', detail: 'You cannot go up from here.' });
    const fleeing = await act(server.url, ann, { action: 'flee' });
    expect(fleeing.body).toMatchObject({ status: 409, code: 'NOT_FIGHTING' });
    const companion = await act(server.url, ann, { action: 'buy', item: 'Pip' });
    expect(companion.status).toBe(409);
    expect(companion.body).toMatchObject({
      code: 'COMPANION_NOT_PURCHASABLE',
      detail: 'Pip is a companion; companions can never be bought, sold or traded',
    });
    const look = await act(server.url, ann, { action: 'look' }).expect(200);
    expect(look.body.room).toBe('village:square');
  });

  it('rejects malformed bodies with 400 and changes nothing', async () => {
    const sideways = await act(server.url, ann, { direction: 'sideways' }, '/mud/move');
    expect(sideways.status).toBe(400);
    expect(sideways.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ path: 'body.direction', message: expect.stringContaining('expected one of') }],
    });
    const dance = await act(server.url, ann, { action: 'dance' });
    expect(dance.status).toBe(400);
    expect(dance.body.errors[0].path).toBe('body.action');
    const extra = await act(server.url, ann, { action: 'take', item: 'stick', teleport: 'caves:deep_pool' });
    expect(extra.status).toBe(400);
    expect(extra.body.errors).toEqual([{ path: 'body', message: expect.stringContaining('teleport') }]);
    const broken = await request(server.url)
      .post('/mud/action')
      .set('Authorization', `Bearer ${ann.token}`)
      .set('Content-Type', 'application/json')
      .send('{"action":');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('MALFORMED_JSON');
    expect(await inventoryText(ann)).toMatch(/^You carry: nothing\./);
  });

  it('requires a valid session: 401 without or with a bad token, before validation', async () => {
    const anonymous = await act(server.url, undefined, { direction: 'north' }, '/mud/move');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    const forged = await act(server.url, { token: 'fps_forged', userId: 'x' }, { action: 'dance' });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('INVALID_CREDENTIAL');
  });

  it('reports live and pending spawns per area', async () => {
    await act(server.url, ann, { action: 'look' }).expect(200);
    const res = await request(server.url).get('/mud/spawns/status').expect(200);
    expect(res.body.areas.map((a: { area_id: string }) => a.area_id)).toEqual([
      'caves',
      'forest',
      'marsh',
      'peaks',
      'ruins',
      'village',
    ]);
    const village = res.body.areas.find((a: { area_id: string }) => a.area_id === 'village');
    expect(village).toMatchObject({
      name: 'Thornwick Village',
      running: true,
      budget: 6,
      live: 5,
      pending: 0,
    });
    expect(village.points).toContainEqual({
      id: 'village:cellar#0',
      room: 'village:cellar',
      creature: 'village:rat',
      max: 3,
      live: 3,
      pending: 0,
    });
    const caves = res.body.areas.find((a: { area_id: string }) => a.area_id === 'caves');
    expect(caves).toMatchObject({ running: false, budget: 10, live: 0, pending: 0 });
    expect(caves.points).toHaveLength(5);
  });

  it('describes the routes and shapes in a valid /openapi.json; a plain GET of the channel is 426', async () => {
    const doc = (await request(server.url).get('/openapi.json').expect(200)).body;
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(doc.paths['/mud/move'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MudMoveRequest',
    });
    expect(doc.paths['/mud/action'].post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MudActionResult',
    });
    expect(doc.paths['/mud/spawns/status'].get.security).toBeUndefined();
    expect(doc.paths['/mud/ws/{user_id}'].get.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['MudAction', 'MudEvent', 'MudPlayer', 'MudSpawnStatus']),
    );

    const plain = await request(server.url)
      .get(`/mud/ws/${ann.userId}`)
      .set('Authorization', `Bearer ${ann.token}`);
    expect(plain.status).toBe(426);
    expect(plain.headers.upgrade).toBe('websocket');
    expect(plain.body.code).toBe('UPGRADE_REQUIRED');
  });
});
