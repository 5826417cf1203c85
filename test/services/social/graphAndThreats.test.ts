import { ManualClock } from '../../../platform/clock';
import { socialStatus } from '../../../services/social/socialStatus';
import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
} from './socialPlatform';

const DAY = 86_400_000;

describe('social brain: graph, threats, stats, decay and the world’s standing', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 8));
  let platform: SocialPlatform;
  let bot: ReturnType<typeof as>;

  beforeAll(async () => {
    platform = await startSocialPlatform({}, clock);
    bot = as(platform.url, SOCIAL_SERVICE_TOKEN);
  });
  afterAll(() => platform.stop());

  const fren = (from: string, to: string) =>
    bot
      .post('/social/brain/fren', {
        platform: 'discord',
        user_id: from,
        target_platform: 'discord',
        target_user_id: to,
      })
      .expect(200);
  const act = (user: string, target: string, kind: string) =>
    bot
      .post('/social/brain/interaction', buildInteraction({ user_id: user, target_user_id: target, kind }))
      .expect(201);

  it('walks friends and friends of friends, trust-weighted, hiding the root’s foes', async () => {
    await fren('g-root', 'g-ann');
    await fren('g-root', 'g-bob');
    await fren('g-ann', 'g-cat');
    await fren('g-bob', 'g-cat');
    await act('g-cat', 'g-bob', 'gift');
    await fren('g-bob', 'g-dan');
    await bot
      .post('/social/brain/foe', {
        platform: 'discord',
        user_id: 'g-root',
        target_platform: 'discord',
        target_user_id: 'g-dan',
      })
      .expect(200);
    const graph = await bot.get('/social/brain/graph/discord/g-root?depth=2').expect(200);
    expect(
      graph.body.nodes.map(
        (n: {
          identity: { user_id: string };
          depth: number;
          score: number;
          via: { user_id: string } | null;
        }) => [n.identity.user_id, n.depth, n.score, n.via?.user_id ?? null],
      ),
    ).toEqual([
      ['g-ann', 1, 0.7, null],
      ['g-bob', 1, 0.7, null],
      ['g-cat', 2, 0.525, 'g-bob'],
    ]);
    expect(graph.body.edges).toHaveLength(4);
    const one = await bot.get('/social/brain/graph/discord/g-root?depth=1').expect(200);
    expect(one.body.nodes).toHaveLength(2);
    const bad = await bot.get('/social/brain/graph/discord/g-root?depth=3');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('query.depth');
  });

  it('ranks threats with reasons for operators and the service token; players get 403', async () => {
    for (const victim of ['t-a', 't-b', 't-c']) {
      await bot
        .post('/social/brain/foe', {
          platform: 'discord',
          user_id: victim,
          target_platform: 'discord',
          target_user_id: 't-troll',
        })
        .expect(200);
      await act('t-troll', victim, 'insult');
      await act(victim, 't-troll', 'report');
    }
    const res = await bot.get('/social/brain/threats?min_level=elevated');
    expect(res.status).toBe(200);
    expect(res.body.threats[0]).toMatchObject({
      person: { platform: 'discord', user_id: 't-troll' },
      identities: [{ platform: 'discord', user_id: 't-troll' }],
      // foe marks 30 + reports 30 + low trust (mean 6: 17) + hostile rate (3 insults: 6).
      threat: { level: 'critical', score: 83 },
    });
    expect(res.body.threats[0].threat.reasons.map((r: { code: string }) => r.code)).toEqual([
      'foe_marks',
      'reports',
      'low_trust',
      'hostile_rate',
    ]);
    const admin = await signUp(platform.url, platform.admin);
    expect((await as(platform.url, admin.token).get('/social/brain/threats')).status).toBe(200);
    const player = await signUp(platform.url);
    const denied = await as(platform.url, player.token).get('/social/brain/threats');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('ROLE_REQUIRED');
  });

  it('decays trust toward 50 over time while marks keep their weight', async () => {
    for (const kind of ['help', 'gift', 'trade_completed']) await act('d-helper', 'd-friend', kind);
    const path =
      '/social/brain/trust/discord/d-helper/history?viewer_platform=discord&viewer_user_id=d-friend';
    expect((await bot.get(path).expect(200)).body.trust).toBe(62);
    clock.advance(30 * DAY);
    expect((await bot.get(path).expect(200)).body.trust).toBe(56);
    await fren('d-friend', 'd-helper');
    clock.advance(60 * DAY);
    // The base decays on (50 + 6 × 0.25 = 51.5); the fren mark adds its 20 undecayed.
    expect((await bot.get(path).expect(200)).body.trust).toBe(72);
  });

  it('gives the world a player’s standing and NPC disposition', async () => {
    const web = (id: string) => ({ platform: 'web', user_id: id });
    const player = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    expect(await platform.area.social.standing(player)).toEqual({
      user_id: player,
      reputation: 50,
      observers: 0,
      threat_level: 'none',
      threat_score: 0,
      disposition: 'neutral',
    });
    for (const friend of ['w1', 'w2']) {
      await bot
        .post('/social/brain/fren', {
          ...web(friend),
          user_id: friend,
          platform: 'discord',
          target_platform: 'web',
          target_user_id: player,
        })
        .expect(200);
    }
    expect(await platform.area.social.standing(player)).toMatchObject({
      reputation: 70,
      observers: 2,
      disposition: 'friendly',
    });
  });

  it('counts the graph', async () => {
    const stats = await bot.get('/social/brain/stats').expect(200);
    expect(stats.body).toMatchObject({
      identities: { web: 1 },
      linked_identities: 0,
      marks: { fren: 8, foe: 4, block: 0 },
    });
    expect(stats.body.persons).toBe(stats.body.identities.discord + 1);
    expect(stats.body.interactions.total).toBe(stats.body.interactions.last_day + 10);
  });

  it('reports the same counts as its area of the admin status, degraded without the memory service', async () => {
    const stats = (await bot.get('/social/brain/stats').expect(200)).body;
    const status = await platform.area.status.status();
    expect(status).toMatchObject({
      state: 'up',
      indexes: {
        identities: stats.identities.web + stats.identities.discord + stats.identities.minecraft,
        persons: stats.persons,
        edges: stats.edges,
        interactions: stats.interactions.total,
        sync_batches: stats.sync_batches,
        memories_waiting: 0,
        merges_waiting: 0,
      },
      detail: null,
    });
    expect(status.last_sync).toBeInstanceOf(Date);
    const forgetful = await socialStatus(platform.area.social.context.store, {}).status();
    expect([forgetful.state, forgetful.detail]).toEqual([
      'degraded',
      'no memory service: interactions are not remembered',
    ]);
  });
});
