import { QdrantClient } from '@qdrant/js-client-rest';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { UnavailableError } from '../../../platform/errors';
import { signIn, startAdminPlatform, type SignedIn } from '../admin/adminPlatform';

/** A post as a creator would record it. */
function buildPost(overrides: Record<string, unknown> = {}) {
  return {
    platform: 'x',
    text: 'Lanterns lit along the harbour wall tonight',
    published_at: '2026-11-04T20:00:00Z',
    tags: ['harbour'],
    ...overrides,
  };
}

/**
 * A creator's post is embedded and its vector stored before the post is: all or nothing. A post the brain cannot
 * index is refused with a 503 problem and nothing stored; a post with a NUL is stored and recallable.
 */
describe('influencer posts: no half-stored writes', () => {
  let ctx: Awaited<ReturnType<typeof startAdminPlatform>>;
  let cora: SignedIn;

  const posts = () => ctx.server.platform.stores.mongo.collection('influencerposts').countDocuments();
  const indexed = async (): Promise<number> => {
    const res = await ctx.as(ctx.admin, 'get', '/admin/brain/status').expect(200);
    return res.body.areas.find((area: { name: string }) => area.name === 'influencer').indexes.posts;
  };
  const create = (body: object) => ctx.as(cora, 'post', '/influencer/brain/posts').send(body);

  beforeAll(async () => {
    ctx = await startAdminPlatform();
    cora = await signIn(ctx.server.url);
    await ctx
      .as(ctx.admin, 'put', `/auth/users/${cora.userId}/roles`)
      .send({ roles: ['creator'] })
      .expect(200);
  });
  afterAll(() => ctx.server.stop());
  afterEach(() => jest.restoreAllMocks());

  it('stores a post with a NUL character whole, and recalls it by meaning', async () => {
    const text = 'Moonleaf\u0000harvest at the forest edge, baskets full of silver leaves';
    const created = await create(buildPost({ text, tags: ['moonleaf'] })).expect(201);
    expect(created.body.text).toBe(text);
    const recall = await ctx
      .as(cora, 'get', `/influencer/brain/posts?q=${encodeURIComponent('moonleaf harvest silver leaves')}`)
      .expect(200);
    expect(recall.body.posts[0]).toMatchObject({ id: created.body.id, text });
  });

  it('answers 503 BRAIN_EMBEDDING_UNAVAILABLE and stores nothing when no embedding provider answers', async () => {
    const [before, vectorsBefore] = [await posts(), await indexed()];
    jest
      .spyOn(EmbeddingChain.prototype, 'embed')
      .mockRejectedValue(
        new UnavailableError('All embedding providers failed (local: failed)', 'BRAIN_EMBEDDING_UNAVAILABLE'),
      );
    const res = await create(buildPost()).expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, code: 'BRAIN_EMBEDDING_UNAVAILABLE' });
    jest.restoreAllMocks();
    expect([await posts(), await indexed()]).toEqual([before, vectorsBefore]);
    // Back up: the same post is stored and indexed.
    await create(buildPost()).expect(201);
    expect([await posts(), await indexed()]).toEqual([before + 1, vectorsBefore + 1]);
  });

  it('answers 503 POST_INDEX_UNAVAILABLE and stores nothing when the vector store refuses the vector', async () => {
    const [before, vectorsBefore] = [await posts(), await indexed()];
    jest.spyOn(QdrantClient.prototype, 'upsert').mockRejectedValue(new Error('connect ECONNREFUSED'));
    const res = await create(buildPost({ text: 'Fog over the harbour this morning' })).expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 503,
      code: 'POST_INDEX_UNAVAILABLE',
      detail: 'Your post could not be indexed for recall right now and was not stored; retry later',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED/);
    jest.restoreAllMocks();
    expect([await posts(), await indexed()]).toEqual([before, vectorsBefore]);
  });

  it('takes the vector back out when the post itself cannot be stored', async () => {
    const [before, vectorsBefore] = [await posts(), await indexed()];
    const proto = Object.getPrototypeOf(ctx.server.platform.stores.mongo.collection('influencerposts'));
    const original = proto.insertOne as (...args: unknown[]) => Promise<unknown>;
    const insert = jest.spyOn(proto, 'insertOne').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      if ((args[0] as { creator?: string } | undefined)?.creator === cora.userId)
        return Promise.reject(new Error('not primary'));
      return original.apply(this, args);
    });
    const res = await create(buildPost({ text: 'Gulls everywhere on the quay' }));
    expect(insert).toHaveBeenCalled();
    expect([res.status, res.headers['content-type']]).toEqual([
      500,
      expect.stringMatching(/^application\/problem\+json/),
    ]);
    jest.restoreAllMocks();
    expect([await posts(), await indexed()]).toEqual([before, vectorsBefore]);
  });
});
