import { Wallet } from 'ethers';
import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { act, signIn, startWorldPlatform, type Player } from '../mud/worldPlatform';

describe('quests brain (SPEC 4.8): recommendations, dismissals, suggestions, insights, status', () => {
  let server: TestPlatform;
  let ann: Player;
  let admin: Player;
  const adminWallet = Wallet.createRandom();
  const get = (player: Player | undefined, path: string) => {
    const req = request(server.url).get(path);
    return player ? req.set('Authorization', `Bearer ${player.token}`) : req;
  };
  const post = (player: Player, path: string) =>
    request(server.url).post(path).set('Authorization', `Bearer ${player.token}`).send({});

  beforeAll(async () => {
    server = await startWorldPlatform({ ADMIN_ADDRESSES: adminWallet.address });
    ann = await signIn(server.url);
    admin = await signIn(server.url, adminWallet);
    // Moving saves the character (acknowledged actions are saved first).
    await act(server.url, ann, { direction: 'east' }, '/mud/move').expect(200);
    await act(server.url, ann, { direction: 'west' }, '/mud/move').expect(200);
  });
  afterAll(() => server.stop());

  it('recommends available quests for the character, with reasons, near ones first', async () => {
    const res = await get(ann, '/quests/brain/recommendations?limit=20').expect(200);
    expect(res.body.character).toMatchObject({ level: 1, room: expect.stringMatching(/^village:/) });
    const refs = res.body.recommendations.map((r: { quest: string }) => r.quest);
    expect(refs.length).toBeGreaterThan(3);
    expect(refs).not.toContain('village:herb_round');
    expect(res.body.recommendations[0]).toMatchObject({
      area: 'village',
      reasons: expect.arrayContaining(['in the area you are in']),
    });
    const scores = res.body.recommendations.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Object.values(res.body.style).reduce((a, b) => (a as number) + (b as number), 0)).toBeCloseTo(
      1,
      2,
    );
  });

  it('a dismissal removes the quest and lowers similar ones; idempotent; 404 and 400', async () => {
    const before = (await get(ann, '/quests/brain/recommendations?limit=20').expect(200)).body
      .recommendations;
    const top = before[0];
    const sameGiver = before.find(
      (r: { giver: string; quest: string }) => r.giver === top.giver && r.quest !== top.quest,
    );
    const first = await post(ann, `/quests/brain/recommendations/${top.quest}/dismiss`).expect(200);
    expect(first.body).toEqual({ quest: top.quest, dismissed_at: expect.any(String) });
    const again = await post(ann, `/quests/brain/recommendations/${top.quest}/dismiss`).expect(200);
    expect(again.body.dismissed_at).toBe(first.body.dismissed_at);
    const after = (await get(ann, '/quests/brain/recommendations?limit=20').expect(200)).body.recommendations;
    expect(after.map((r: { quest: string }) => r.quest)).not.toContain(top.quest);
    if (sameGiver) {
      const lowered = after.find((r: { quest: string }) => r.quest === sameGiver.quest);
      expect(lowered.score).toBeLessThan(sameGiver.score);
      expect(
        lowered.reasons.some((reason: string) => reason.startsWith('lowered: like a quest you dismissed')),
      ).toBe(true);
    }
    const unknown = await post(ann, '/quests/brain/recommendations/village:no_such_quest/dismiss');
    expect([unknown.status, unknown.body.code, unknown.body.detail]).toEqual([
      404,
      'QUEST_NOT_FOUND',
      'No quest village:no_such_quest',
    ]);
    const bad = await post(ann, '/quests/brain/recommendations/DROP/dismiss');
    expect([bad.status, bad.body.code, bad.body.errors[0].path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'params.quest',
    ]);
  });

  it('suggests quests by the meaning of free-text interests, with the caller’s state', async () => {
    const res = await get(
      ann,
      '/quests/brain/suggest?interests=hunting%20wolves%20in%20the%20forest&limit=3',
    ).expect(200);
    expect(res.body.suggestions[0]).toMatchObject({ quest: 'forest:wolf_cull', state: 'available' });
    const herbs = await get(
      ann,
      '/quests/brain/suggest?interests=gathering%20herbs%20for%20the%20healer',
    ).expect(200);
    expect(herbs.body.suggestions[0].giver).toBe('village:healer');
    const bad = await get(ann, '/quests/brain/suggest');
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'query.interests']);
  });

  it('insights: the player’s progression; operators also get the world’s figures', async () => {
    const mine = await get(ann, '/quests/brain/insights').expect(200);
    expect(mine.body.world).toBeNull();
    expect(mine.body.player).toMatchObject({ level: 1, completion_ratio: 0, total: expect.any(Number) });
    const counts = mine.body.player.counts;
    expect(counts.active + counts.completed + counts.available + counts.locked).toBe(mine.body.player.total);
    const world = await get(admin, '/quests/brain/insights').expect(200);
    expect(world.body.world.players_scanned).toBeGreaterThanOrEqual(1);
    expect(world.body.world.quests.length).toBe(mine.body.player.total);
  });

  it('status: quests indexed and synced; signed-in users only', async () => {
    const res = await get(ann, '/quests/brain/status').expect(200);
    expect(res.body).toMatchObject({ state: 'up', events_connected: true, last_sync: expect.any(String) });
    expect(res.body.quests_indexed).toBe(res.body.world_quests);
    const stranger = await get(undefined, '/quests/brain/status');
    expect([stranger.status, stranger.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});
