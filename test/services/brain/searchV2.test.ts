import request from 'supertest';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';
import { V2_CORPUS } from './v2Corpus';

/** Waits (at most 5 s) for the RAPTOR upkeep to leave `building`/`stale`. */
async function waitForRaptor(brain: BrainTestPlatform): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    if ((((await brain.stats()).raptor as { state: string }).state ?? '') === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the RAPTOR trees did not become ready within 5 s');
}

describe('POST /brain/search/v2', () => {
  let brain: BrainTestPlatform;
  const search = (body: object) => request(brain.url).post('/brain/search/v2').send(body);

  beforeAll(async () => {
    brain = await startBrainPlatform();
    await brain.ingest(V2_CORPUS).expect(200);
    // Vectors land in the background and move the cache's generation: the cache test below needs them all landed.
    await brain.enriched();
  });
  afterAll(() => brain?.stop());

  it('routes an identifier to fulltext (SIMPLE) and returns the route taken', async () => {
    const res = await search({ query: 'lookupCache' }).expect(200);

    expect(res.body.route).toEqual({
      class: 'SIMPLE',
      strategies: ['fulltext'],
      reason: '1 keyword(s), no question word',
      reranked: true,
    });
    expect(res.body.hits[0]).toMatchObject({
      source: 'ai/lookup.ts',
      strategy: 'fulltext',
      found_by: ['fulltext'],
    });
    expect(res.body).toMatchObject({ query: 'lookupCache', cached: false, degraded: false });
  });

  it('routes a specific question to HYDE (semantic search of a hypothetical answer) fused with the hybrid anchor, plus reranking (FACTUAL)', async () => {
    const res = await search({ query: 'How much of every sale does the platform keep as a fee?' }).expect(
      200,
    );

    expect(res.body.route).toMatchObject({ class: 'FACTUAL', reranked: true });
    expect(res.body.route.strategies).toEqual(['hyde', 'hybrid']);
    expect(res.body.hits[0]).toMatchObject({ source: 'docs/economy.md', title: 'Economy › Fees' });
  });

  it('fuses every available strategy for a comparison (COMPLEX)', async () => {
    const res = await search({
      query: 'What is the difference between the soft currency and the hard currency?',
    }).expect(200);

    expect(res.body.route.class).toBe('COMPLEX');
    expect(res.body.route.strategies).toEqual(expect.arrayContaining(['fulltext', 'semantic', 'hyde']));
    expect(res.body.hits[0]).toMatchObject({ source: 'docs/economy.md', title: 'Economy › Currencies' });
  });

  it('runs a named strategy alone, and serves the repeat from the cache', async () => {
    const body = { query: 'breaker recovery trial calls', strategy: 'hyde', limit: 2 };
    const first = await search(body).expect(200);
    const second = await search(body).expect(200);

    expect(first.body.route).toEqual({
      class: null,
      strategies: ['hyde'],
      reason: 'strategy named by the request',
      reranked: true,
    });
    expect(first.body.hits).toHaveLength(2);
    expect(first.body.hits[0].source).toBe('docs/breaker.md');
    expect([first.body.cached, second.body.cached]).toEqual([false, true]);
    expect(second.body.hits).toEqual(first.body.hits);
  });

  it('keeps only hits under the source prefix filter', async () => {
    const res = await search({
      query: 'cache',
      strategy: 'fulltext',
      filters: { source_prefix: 'test/' },
    }).expect(200);

    expect(res.body.hits.map((h: { source: string }) => h.source)).toEqual(['test/lookup.test.ts']);
  });

  it('answers a named RAPTOR search from the trees (collapsed tree, hits with their level), cached like the rest', async () => {
    await waitForRaptor(brain);
    const first = await search({ query: 'breaker', strategy: 'raptor', rerank: false }).expect(200);
    const again = await search({ query: 'breaker', strategy: 'raptor', rerank: false }).expect(200);

    expect(first.body.route).toEqual({
      class: null,
      strategies: ['raptor'],
      reason: 'strategy named by the request',
      reranked: false,
    });
    expect(first.body).toMatchObject({ degraded: false, cached: false });
    // Four documents make trees of leaves only (a level is clustered from 9 nodes up): every hit is a chunk.
    expect(first.body.hits[0]).toMatchObject({ source: 'docs/breaker.md', strategy: 'raptor', level: 0 });
    expect(again.body.cached).toBe(true);
  });

  it.each([
    [{ query: '' }, 'body.query'],
    [{ query: 'x', strategy: 'magic' }, 'body.strategy'],
    [{ query: 'x', limit: 0 }, 'body.limit'],
    [{ query: 'x', rerank: 'yes' }, 'body.rerank'],
  ])('rejects %j with 400 VALIDATION_FAILED', async (body, path) => {
    const res = await search(body).expect(400);

    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('keeps a knowledge graph of the corpus up in the background and searches it (GRAPH, entities named)', async () => {
    let stats = await brain.stats();
    for (let tries = 0; (stats.graph as { state: string }).state !== 'ready' && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = await brain.stats();
    }
    expect(stats.graph).toMatchObject({ state: 'ready', pending_documents: 0 });
    expect((stats.graph as { entities: number }).entities).toBeGreaterThan(5);
    expect(stats.raptor).toMatchObject({ state: 'ready', nodes_per_level: [stats.total_chunks] });

    const res = await search({ query: 'breaker recovery', strategy: 'graph', rerank: false }).expect(200);

    expect(res.body.hits[0]).toMatchObject({
      source: 'docs/breaker.md',
      strategy: 'graph',
      entities: expect.arrayContaining(['Recovery']),
    });
  });

  it('counts routed searches by class in /brain/stats and in the metrics', async () => {
    const stats = await brain.stats();

    expect(stats.routes).toMatchObject({ SIMPLE: 1, FACTUAL: 1, COMPLEX: 1 });
    expect(
      await brain.metric('brain_routed_search_total', { class: 'SIMPLE', strategy: 'fulltext' }),
    ).toBeGreaterThanOrEqual(1);
  });
});
