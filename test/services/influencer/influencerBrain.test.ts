import request from 'supertest';
import { ADMIN_SERVICE_TOKEN, signIn, startAdminPlatform, type SignedIn } from '../admin/adminPlatform';

const GUIDE = `# Moonleaf guide

Moonleaf grows silver in the shade at the roots of the great oaks at the Forest Edge.
Healers in the village pay well for moonleaf, because it brews the strongest salves.
Moonleaf regrows slowly, so gatherers should leave a few leaves on every plant.

# Wolves

Wolves hunt in the bramble thicket and attack anyone who lingers after dusk.
`;

/** A post as a creator would record it. */
function buildPost(overrides: Record<string, unknown> = {}) {
  return {
    platform: 'x',
    text: 'Out gathering moonleaf at the forest edge today!',
    published_at: '2026-11-02T18:00:00Z',
    tags: ['moonleaf'],
    ...overrides,
  };
}

describe('influencer brain (SPEC 4.7): creators only', () => {
  let ctx: Awaited<ReturnType<typeof startAdminPlatform>>;
  let cora: SignedIn;
  let dan: SignedIn;
  let player: SignedIn;

  beforeAll(async () => {
    ctx = await startAdminPlatform();
    [cora, dan, player] = [
      await signIn(ctx.server.url),
      await signIn(ctx.server.url),
      await signIn(ctx.server.url),
    ];
    for (const creator of [cora, dan])
      await ctx
        .as(ctx.admin, 'put', `/auth/users/${creator.userId}/roles`)
        .send({ roles: ['creator'] })
        .expect(200);
    await request(ctx.server.url)
      .post('/brain/ingest')
      .set('Authorization', `Bearer ${ADMIN_SERVICE_TOKEN}`)
      .send({ documents: [{ source: 'docs/moonleaf.md', index: 'docs', text: GUIDE }] })
      .expect(200);
  });
  afterAll(() => ctx.server.stop());

  it('needs the creator grant: players and even admins without it get 403; strangers 401', async () => {
    for (const user of [player, ctx.admin]) {
      const res = await ctx.as(user, 'get', '/influencer/brain/insights');
      expect([res.status, res.body.code, res.body.detail]).toEqual([
        403,
        'ROLE_REQUIRED',
        'Requires the creator role',
      ]);
    }
    const stranger = await ctx.as(undefined, 'get', '/influencer/brain/insights');
    expect(stranger.status).toBe(401);
  });

  it('stores posts, recalls only the creator’s own by meaning, and refuses bad posts', async () => {
    const created = await ctx.as(cora, 'post', '/influencer/brain/posts').send(buildPost()).expect(201);
    expect(created.body).toMatchObject({
      platform: 'x',
      url: null,
      tags: ['moonleaf'],
      topics: expect.arrayContaining(['moonleaf']),
    });
    await ctx
      .as(cora, 'post', '/influencer/brain/posts')
      .send(
        buildPost({
          text: 'Wolf pack spotted in the thicket, stay safe.',
          tags: ['wolves'],
          published_at: '2026-11-03T09:00:00Z',
        }),
      )
      .expect(201);
    await ctx
      .as(dan, 'post', '/influencer/brain/posts')
      .send(buildPost({ text: 'Dan also loves moonleaf gathering.' }))
      .expect(201);
    const recall = await ctx
      .as(cora, 'get', '/influencer/brain/posts?q=gathering%20herbs%20moonleaf')
      .expect(200);
    expect(recall.body.posts[0]).toMatchObject({ id: created.body.id, score: expect.any(Number) });
    expect(recall.body.posts.every((p: { text: string }) => !p.text.startsWith('Dan'))).toBe(true);
    const bad = await ctx.as(cora, 'post', '/influencer/brain/posts').send({ platform: 'X Y', text: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.platform',
      'body.published_at',
      'body.text',
    ]);
  });

  it('records engagement idempotently per post and time and reports insights', async () => {
    const posts = (await ctx.as(cora, 'get', '/influencer/brain/posts').expect(200)).body.posts;
    const [wolves, moonleaf] = posts;
    const reading = {
      post_id: moonleaf.id,
      at: '2026-11-04T00:00:00Z',
      likes: 120,
      shares: 30,
      comments: 10,
      views: 2000,
    };
    const first = await ctx.as(cora, 'post', '/influencer/brain/engagement').send(reading).expect(201);
    expect(first.body.engagement).toBe(120 + 60 + 15);
    await ctx.as(cora, 'post', '/influencer/brain/engagement').send(reading).expect(200);
    const conflict = await ctx
      .as(cora, 'post', '/influencer/brain/engagement')
      .send({ ...reading, likes: 1 });
    expect([conflict.status, conflict.body.code]).toEqual([409, 'ENGAGEMENT_CONFLICT']);
    await ctx
      .as(cora, 'post', '/influencer/brain/engagement')
      .send({ ...reading, post_id: wolves.id, likes: 5, shares: 0, comments: 0, views: 400 })
      .expect(201);
    const foreign = await ctx.as(dan, 'post', '/influencer/brain/engagement').send(reading);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'POST_NOT_FOUND']);

    const insights = await ctx.as(cora, 'get', '/influencer/brain/insights').expect(200);
    expect(insights.body.posts.map((p: { id: string }) => p.id)).toEqual([wolves.id, moonleaf.id]);
    expect(insights.body.topics.find((t: { key: string }) => t.key === 'moonleaf')).toMatchObject({
      posts: 1,
      mean_engagement: 195,
    });
    expect(insights.body.best_topics[0].mean_engagement).toBe(195);
    expect(insights.body.worst_topics.map((t: { key: string }) => t.key)).toContain('wolves');
    expect(insights.body.weekdays.map((w: { key: string }) => w.key)).toEqual(['monday', 'tuesday']);
    expect(insights.body.hours.map((h: { key: string }) => h.key)).toEqual(['09', '18']);
    expect(insights.body.trend).toMatchObject({ direction: 'insufficient', posts_measured: 2 });
  });

  it('searches the knowledge base and looks entities up in the knowledge graph', async () => {
    const found = await ctx
      .as(cora, 'get', '/influencer/brain/search?q=where%20does%20moonleaf%20grow')
      .expect(200);
    expect(found.body.hits[0]).toMatchObject({ source: 'docs/moonleaf.md' });
    const mongo = ctx.server.platform.stores.mongo;
    const now = new Date();
    await mongo.collection('graphentities').insertMany([
      {
        _id: 'corpus|moonleaf' as never,
        scope: 'corpus',
        key: 'moonleaf',
        name: 'Moonleaf',
        type: 'term',
        aliases: [],
        mention_count: 3,
        first_seen: now,
        last_seen: now,
        communities: [],
      },
      {
        _id: 'corpus|forest edge' as never,
        scope: 'corpus',
        key: 'forest edge',
        name: 'Forest Edge',
        type: 'place',
        aliases: [],
        mention_count: 1,
        first_seen: now,
        last_seen: now,
        communities: [],
      },
    ]);
    await mongo.collection('graphfacts').insertOne({
      _id: 'f1' as never,
      scope: 'corpus',
      subject: 'corpus|moonleaf',
      predicate: 'grows_in',
      object: 'corpus|forest edge',
      object_is_entity: true,
      valid_from: now,
      valid_to: null,
      recorded_at: now,
      expired_at: null,
      source_memory_ids: [],
    });
    const entity = await ctx.as(cora, 'get', '/influencer/brain/entity/moonleaf').expect(200);
    expect(entity.body).toMatchObject({
      name: 'Moonleaf',
      mention_count: 3,
      facts: [{ predicate: 'grows_in', object: 'Forest Edge', object_is_entity: true }],
    });
    const missing = await ctx.as(cora, 'get', '/influencer/brain/entity/unicorn');
    expect([missing.status, missing.body.code]).toEqual([404, 'ENTITY_NOT_FOUND']);
  });

  it('generates a draft only from sources, citing each, within the platform’s limit; refuses without sources', async () => {
    const res = await ctx
      .as(cora, 'post', '/influencer/brain/generate')
      .send({ topic: 'moonleaf', platform: 'x', tone: 'informative', length: 'long' })
      .expect(200);
    expect(res.body.method).toBe('offline-extractive');
    expect(res.body.text.length).toBeLessThanOrEqual(280);
    expect(res.body.text.startsWith('What to know about moonleaf:')).toBe(true);
    expect(res.body.hashtags).toEqual(['#moonleaf']);
    expect(res.body.sources.length).toBeGreaterThan(0);
    for (const source of res.body.sources) {
      expect(res.body.text).toContain(`[${source.ref}]`);
      const origin = source.kind === 'knowledge' ? GUIDE : 'Out gathering moonleaf at the forest edge today!';
      for (const sentence of source.quoted.split(/(?<=[.!?])\s+/))
        expect(origin.replace(/\n/g, ' ')).toContain(sentence);
    }
    const blog = await ctx
      .as(cora, 'post', '/influencer/brain/generate')
      .send({ topic: 'moonleaf healers', platform: 'blog', length: 'long' })
      .expect(200);
    expect(blog.body.text).toContain(
      'Healers in the village pay well for moonleaf, because it brews the strongest salves. [',
    );
    const none = await ctx
      .as(cora, 'post', '/influencer/brain/generate')
      .send({ topic: 'quantum chromodynamics', platform: 'x' });
    expect([none.status, none.body.code]).toEqual([422, 'NO_SOURCES']);
  });
});
