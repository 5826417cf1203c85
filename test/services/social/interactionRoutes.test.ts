import request from 'supertest';
import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
  type SocialUser,
} from './socialPlatform';

describe('social brain: interactions and profiles', () => {
  let platform: SocialPlatform;
  let url: string;
  let bot: ReturnType<typeof as>;
  let ann: SocialUser;

  beforeAll(async () => {
    platform = await startSocialPlatform();
    url = platform.url;
    bot = as(url, SOCIAL_SERVICE_TOKEN);
    ann = await signUp(url);
  });
  afterAll(() => platform.stop());

  it('records an interaction, moves the target’s trust in the actor and remembers it for both people', async () => {
    const body = buildInteraction({
      user_id: 'helper-1',
      target_user_id: 'helped-1',
      content: 'showed them the redstone farm',
    });
    const res = await bot.post('/social/brain/interaction', body);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body).toMatchObject({
      id: `service:${body.idempotency_key}`,
      actor: { platform: 'discord', user_id: 'helper-1' },
      target: { platform: 'discord', user_id: 'helped-1' },
      kind: 'help',
      hostile: false,
      occurred_at: '2026-11-26T08:00:00.000Z',
      effect: {
        observer: { platform: 'discord', user_id: 'helped-1' },
        subject: { platform: 'discord', user_id: 'helper-1' },
        applied: 4,
        trust_after: 54,
        capped: false,
      },
    });
    const memories = platform.ports.memories.filter((memory) => memory.content.includes('redstone'));
    expect(memories.map((memory) => memory.subject).sort()).toEqual([
      'social:discord:helped-1',
      'social:discord:helper-1',
    ]);
    expect(memories[0]).toMatchObject({
      tier: 'episodic',
      kind: 'social.help',
      tags: expect.arrayContaining(['social']),
    });
  });

  it('reports the effect of accounts whose ids hold @ and :', async () => {
    const res = await bot.post(
      '/social/brain/interaction',
      buildInteraction({ user_id: 'steve@mc:1', target_user_id: 'alex@mc:2', kind: 'gift' }),
    );
    expect(res.body.effect).toMatchObject({ applied: 5, trust_after: 55 });
  });

  it('answers a replay with the first result and changes nothing; another body under the same key is 409', async () => {
    const body = buildInteraction({ user_id: 'gifter', target_user_id: 'giftee', kind: 'gift' });
    const first = await bot.post('/social/brain/interaction', body).expect(201);
    const replay = await bot.post('/social/brain/interaction', body);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const profile = await bot
      .get('/social/brain/profile/discord/gifter?viewer_platform=discord&viewer_user_id=giftee')
      .expect(200);
    expect(profile.body.trust).toEqual({ viewer_trusts_them: 55, they_trust_viewer: 50 });
    const conflict = await bot.post('/social/brain/interaction', { ...body, kind: 'insult' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', status: 409 });
  });

  it('applies concurrent interactions on one edge once each, in some order, losing none', async () => {
    const sends = Array.from({ length: 8 }, () =>
      bot.post(
        '/social/brain/interaction',
        buildInteraction({ user_id: 'busy-helper', target_user_id: 'busy-friend' }),
      ),
    );
    const answers = await Promise.all(sends);
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(201));
    // Eight helps on one day: 4 + 2 + 1 + 0.5 + ... = 7.97 points, whatever order they landed in.
    const applied = answers.map((res) => res.body.effect.applied as number).sort((a, b) => b - a);
    expect(applied).toEqual([4, 2, 1, 0.5, 0.25, 0.13, 0.06, 0.03]);
    const history = await bot
      .get(
        '/social/brain/trust/discord/busy-helper/history?viewer_platform=discord&viewer_user_id=busy-friend',
      )
      .expect(200);
    expect(history.body.trust).toBe(58);
    expect(history.body.changes).toHaveLength(8);
  });

  it('lets a signed-in user act only as their own identity', async () => {
    const own = await as(url, ann.token).post(
      '/social/brain/interaction',
      buildInteraction({ platform: 'web', user_id: ann.userId, target_user_id: 'someone' }),
    );
    expect(own.status).toBe(201);
    expect(own.body.id).toMatch(new RegExp(`^user:${ann.userId}:`));
    // Her own claim to have helped raises nobody's trust in her; owning up to an insult does lower it.
    expect(own.body.effect).toBeNull();
    const insult = await as(url, ann.token).post(
      '/social/brain/interaction',
      buildInteraction({ platform: 'web', user_id: ann.userId, target_user_id: 'someone', kind: 'insult' }),
    );
    expect(insult.body.effect).toMatchObject({ applied: -6, trust_after: 44 });
    const other = await as(url, ann.token).post(
      '/social/brain/interaction',
      buildInteraction({ user_id: 'someone', target_user_id: 'victim' }),
    );
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({
      code: 'NOT_YOUR_IDENTITY',
      detail: 'A signed-in user acts only as their own identities, not discord:someone',
    });
    const anonymous = await request(url).post('/social/brain/interaction').send(buildInteraction());
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('rejects bad input with 400 problem JSON naming the paths, and records nothing', async () => {
    const body = buildInteraction({
      user_id: 'bad-input',
      kind: 'hug',
      sentiment: 3,
      target_user_id: undefined,
    });
    const res = await bot.post('/social/brain/interaction', body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'body.kind',
      'body.sentiment',
    ]);
    const profile = await bot.get('/social/brain/profile/discord/bad-input');
    expect(profile.status).toBe(404);
    expect(profile.body).toMatchObject({
      code: 'IDENTITY_NOT_FOUND',
      detail: 'No social identity discord:bad-input',
    });
  });

  it('profiles a person: trust both ways, relationship, counts, recent summary, topics and threat', async () => {
    for (const [kind, content] of [
      ['message', 'the redstone clock keeps breaking'],
      ['help', 'fixed the redstone repeater'],
      ['insult', 'your castle is ugly'],
    ]) {
      await bot
        .post(
          '/social/brain/interaction',
          buildInteraction({ user_id: 'carol', target_user_id: 'dave', kind, content }),
        )
        .expect(201);
    }
    const res = await as(url, ann.token).get('/social/brain/profile/discord/carol');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      person: { platform: 'discord', user_id: 'carol' },
      identities: [{ platform: 'discord', user_id: 'carol', display_name: null, linked_at: null }],
      viewer: { platform: 'web', user_id: ann.userId },
      trust: { viewer_trusts_them: 50, they_trust_viewer: 50 },
      relationship: 'neutral',
      reputation: 49,
      friend_count: 0,
      foe_count: 0,
      recent: { days: 7, interactions: 3, by_kind: { message: 1, help: 1, insult: 1 } },
      threat: {
        level: 'none',
        score: 2,
        reasons: [{ code: 'hostile_rate', points: 2, detail: '1 hostile interactions in 24 hours' }],
      },
    });
    expect(res.body.topics[0]).toEqual({ term: 'redston', weight: 2 });
  });
});
