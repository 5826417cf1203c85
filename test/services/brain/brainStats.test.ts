import request from 'supertest';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

describe('GET /brain/stats', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform();
  });
  afterAll(() => brain?.stop());

  it('is public and reports an empty corpus before any ingest', async () => {
    const idle = { pending: 0, pending_documents: 0, done: 0, rate: 0, oldest_pending_at: null };
    const res = await request(brain.url).get('/brain/stats').expect(200);

    expect(res.body).toEqual({
      documents: { docs: 0, code: 0, tests: 0 },
      chunks: { docs: 0, code: 0, tests: 0 },
      total_documents: 0,
      total_chunks: 0,
      vectors: [{ model: 'local-sem-v1-384', dimensions: 384, count: 0 }],
      last_ingest_at: null,
      last_ingest_by: null,
      documents_by_ingester: [],
      queries: { fulltext: 0, semantic: 0, hybrid: 0 },
      embedding_providers: [{ provider: 'local', model: 'local-sem-v1-384', state: 'CLOSED' }],
      generation_providers: [{ provider: 'extractive', model: 'extractive-textrank-v1', state: 'CLOSED' }],
      routes: { SIMPLE: 0, FACTUAL: 0, EXPLORATORY: 0, COMPLEX: 0, named: 0 },
      graph: { state: 'empty', entities: 0, relations: 0, communities_per_level: [], pending_documents: 0 },
      raptor: { state: 'empty', nodes_per_level: [], pending_documents: 0, summaries_written: 0 },
      // The memories' move into the sentence encoder's space: null on the chain path (the test platforms' pin).
      memory_vectors: null,
      enrichment: {
        vectors: { ...idle, unit: 'chunks', state: 'idle' },
        graph: { ...idle, unit: 'documents', state: 'empty' },
        raptor: { ...idle, unit: 'documents', state: 'empty' },
      },
    });
  });

  it('counts documents and chunks per index, vectors per model, the last ingest and queries per strategy', async () => {
    await brain
      .ingest([
        { source: 'docs/a.md', index: 'docs', text: '# A\n\nFirst part.\n\n## B\n\nSecond part.\n' },
        {
          source: 'test/a.test.ts',
          index: 'tests',
          text: "it('works', () => {\n  expect(true).toBe(true);\n});\n",
        },
      ])
      .expect(200);
    brain.clock.advance(5_000);
    await brain
      .ingest([{ source: 'ai/a.ts', index: 'code', text: 'export const answer = 42;\n' }])
      .expect(200);
    for (const strategy of ['fulltext', 'semantic', 'semantic', 'hybrid']) {
      await brain.search({ query: 'part', strategy }).expect(200);
    }
    await brain.search({ query: 'part' }).expect(200);
    await brain.enriched();

    expect(await brain.stats()).toMatchObject({
      enrichment: {
        vectors: { unit: 'chunks', pending: 0, pending_documents: 0, done: 4, oldest_pending_at: null },
        graph: { pending: 0, done: 3 },
        raptor: { pending: 0, done: 3 },
      },
      documents: { docs: 1, code: 1, tests: 1 },
      chunks: { docs: 2, code: 1, tests: 1 },
      total_documents: 3,
      total_chunks: 4,
      vectors: [{ model: 'local-sem-v1-384', dimensions: 384, count: 4 }],
      last_ingest_at: new Date(brain.clock.now()).toISOString(),
      last_ingest_by: 'service',
      documents_by_ingester: [{ ingested_by: 'service', documents: 3 }],
      queries: { fulltext: 1, semantic: 2, hybrid: 2 },
      embedding_providers: [{ provider: 'local', model: 'local-sem-v1-384', state: 'CLOSED' }],
    });
    expect(
      await brain.metric('brain_search_total', { strategy: 'semantic', index: 'all' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await brain.metric('brain_search_latency_seconds_count', { strategy: 'hybrid' }),
    ).toBeGreaterThanOrEqual(2);
  });
});
