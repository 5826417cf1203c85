import request from 'supertest';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const BREAKER_DOC = {
  source: 'docs/breaker.md',
  index: 'docs',
  text:
    '# Circuit breaker\n\nThe embedding circuit breaker opens after five consecutive failures.\n\n' +
    '## Recovery\n\nAfter sixty seconds the breaker lets three trial calls through.\n',
};
const CACHE_CODE = {
  source: 'ai/lookup.ts',
  index: 'code',
  text:
    '/** Looks a key up in the two-level cache. */\nexport function lookupCache(key: string): string {\n' +
    '  return key.trim();\n}\n',
};
const CACHE_TEST = {
  source: 'test/lookup.test.ts',
  index: 'tests',
  text: "describe('lookupCache', () => {\n  it('hits the cache on the second query', () => {\n    expect(1).toBe(1);\n  });\n});\n",
};

describe('brain ingest and search over HTTP', () => {
  let brain: BrainTestPlatform;

  beforeAll(async () => {
    brain = await startBrainPlatform();
    await brain.ingest([BREAKER_DOC, CACHE_CODE, CACHE_TEST]).expect(200);
    await brain.enriched();
  });
  afterAll(() => brain?.stop());

  it('answers findable by fulltext at once, with vectors, graph and RAPTOR pending, then enriched', async () => {
    const res = await brain.ingest([{ ...CACHE_CODE, source: 'ai/other.ts' }]).expect(200);

    expect(res.body.documents).toEqual([
      {
        document_id: expect.stringMatching(/^[0-9a-f]{64}$/),
        index: 'code',
        source: 'ai/other.ts',
        title: 'other.ts',
        status: 'created',
        chunks: 1,
        embedded: 0,
        removed: 0,
        embedding_model: null,
        indexed: ['fulltext'],
        pending: ['vectors', 'graph', 'raptor'],
      },
    ]);
    expect(res.body.totals).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      chunks: 1,
      embedded: 0,
      removed: 0,
    });
    const id = res.body.documents[0].document_id as string;
    await brain.enriched();
    const status = await request(brain.url).get(`/brain/documents/${id}`).expect(200);
    expect(status.body).toMatchObject({
      document_id: id,
      source: 'ai/other.ts',
      chunks: 1,
      embedding_model: 'local-sem-v1-384',
      indexed: ['fulltext', 'vectors', 'graph', 'raptor'],
      pending: [],
    });
    const semantic = await brain
      .search({ query: 'lookup cache', strategy: 'semantic', limit: 10 })
      .expect(200);
    expect(semantic.body.hits.map((h: { source: string }) => h.source)).toContain('ai/other.ts');
  });

  it('answers 404 problem JSON for an unknown document and 400 for a malformed id', async () => {
    const missing = await request(brain.url)
      .get(`/brain/documents/${'0'.repeat(64)}`)
      .expect(404);
    expect(missing.body.code).toBe('BRAIN_DOCUMENT_NOT_FOUND');
    await request(brain.url).get('/brain/documents/nothex').expect(400);
  });

  it.each(['fulltext', 'semantic', 'hybrid'] as const)(
    'finds the answering chunk with %s search',
    async (strategy) => {
      const res = await brain.search({ query: 'circuit breaker consecutive failures', strategy }).expect(200);

      expect(res.body).toMatchObject({
        query: 'circuit breaker consecutive failures',
        strategy,
        cached: false,
      });
      const [top] = res.body.hits;
      expect(top).toMatchObject({
        index: 'docs',
        source: 'docs/breaker.md',
        title: 'Circuit breaker',
        strategy,
        start_line: 1,
        end_line: 3,
      });
      expect(top.id).toMatch(/^[0-9a-f]{64}$/);
      expect(top.snippet).toContain('<mark>circuit</mark> <mark>breaker</mark>');
      expect(top.found_by).toEqual(strategy === 'hybrid' ? ['fulltext', 'semantic'] : [strategy]);
      expect(top).not.toHaveProperty('text');
    },
  );

  it('ranks by BM25 for fulltext, cosine for semantic and reciprocal rank for hybrid', async () => {
    const scores = async (strategy: string) =>
      (await brain.search({ query: 'breaker trial calls', strategy }).expect(200)).body.hits.map(
        (h: { score: number }) => h.score,
      );

    const [fulltext, semantic, hybrid] = [
      await scores('fulltext'),
      await scores('semantic'),
      await scores('hybrid'),
    ];

    expect(fulltext[0]).toBeGreaterThan(1);
    expect(semantic[0]).toBeGreaterThan(0.2);
    expect(semantic[0]).toBeLessThanOrEqual(1);
    expect(hybrid[0]).toBeCloseTo(2 / 61, 6);
    for (const list of [fulltext, semantic, hybrid]) expect([...list].sort((a, b) => b - a)).toEqual(list);
  });

  it('filters by index and honours the limit', async () => {
    const tests = await brain
      .search({ query: 'lookup cache', strategy: 'hybrid', indexes: ['tests'] })
      .expect(200);
    const one = await brain.search({ query: 'lookup cache', strategy: 'fulltext', limit: 1 }).expect(200);

    expect(tests.body.hits.map((h: { source: string }) => h.source)).toEqual(['test/lookup.test.ts']);
    expect(one.body.hits).toHaveLength(1);
  });

  it('replaces the chunks of a re-ingested source and keeps the unchanged ones', async () => {
    const changed = BREAKER_DOC.text.replace('sixty seconds', 'ninety seconds');
    const before = await brain.stats();

    const res = await brain.ingest([{ ...BREAKER_DOC, text: changed }]).expect(200);

    expect(res.body.documents[0]).toMatchObject({ status: 'updated', chunks: 2, embedded: 0, removed: 1 });
    expect(res.body.documents[0].pending).toContain('vectors');
    await brain.enriched();
    const sixty = await brain.search({ query: 'sixty', strategy: 'fulltext' }).expect(200);
    const ninety = await brain.search({ query: 'ninety', strategy: 'fulltext' }).expect(200);
    expect(sixty.body.hits).toEqual([]);
    expect(ninety.body.hits.map((h: { source: string }) => h.source)).toEqual(['docs/breaker.md']);
    const after = await brain.stats();
    expect(after.total_chunks).toBe(before.total_chunks);
    expect(after.vectors).toEqual(before.vectors);
  });

  it('deduplicates repeated content and leaves an unchanged document alone', async () => {
    const section = '## Note\n\nThe same paragraph appears twice in this file.\n';
    const doc = {
      source: 'docs/twice.md',
      index: 'docs',
      text: `# Twice\n\nIntro.\n\n${section}\n${section}`,
    };

    const first = await brain.ingest([doc]).expect(200);
    // The vectors arriving in the background move the cache generation once more; an unchanged re-ingest does not.
    await brain.enriched();
    const generation = (await request(brain.url).get('/brain/cache/stats').expect(200)).body.generation;
    const again = await brain.ingest([doc]).expect(200);

    expect(first.body.documents[0]).toMatchObject({ status: 'created', chunks: 2, embedded: 0 });
    expect(again.body.documents[0]).toMatchObject({
      status: 'unchanged',
      chunks: 2,
      embedded: 0,
      removed: 0,
      indexed: [],
      pending: [],
    });
    const hits = (await brain.search({ query: 'same paragraph appears', strategy: 'fulltext' })).body.hits;
    expect(hits.filter((h: { source: string }) => h.source === 'docs/twice.md')).toHaveLength(1);
    expect((await request(brain.url).get('/brain/cache/stats')).body.generation).toBe(generation);
  });
});
