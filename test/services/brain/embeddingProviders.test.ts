import request from 'supertest';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../ai/embeddings/fakeEmbeddingServer';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

function buildDoc(name: string) {
  return {
    source: `docs/${name}.md`,
    index: 'docs',
    text: `# ${name}\n\nNotes about the ${name} embedding fallback.\n`,
  };
}

describe('brain embedding providers over HTTP (fake OpenAI-compatible servers, injected clock)', () => {
  let primary: FakeEmbeddingServer;
  let secondary: FakeEmbeddingServer;
  let brain: BrainTestPlatform;

  beforeEach(async () => {
    [primary, secondary] = await Promise.all([startFakeEmbeddingServer(4), startFakeEmbeddingServer(3)]);
    brain = await startBrainPlatform({
      BRAIN_EMBED_PRIMARY_URL: primary.url,
      BRAIN_EMBED_PRIMARY_MODEL: 'fake-primary',
      BRAIN_EMBED_PRIMARY_API_KEY: 'primary-key-0123456789',
      BRAIN_EMBED_PRIMARY_DIMENSIONS: '4',
      BRAIN_EMBED_SECONDARY_URL: secondary.url,
      BRAIN_EMBED_SECONDARY_MODEL: 'fake-secondary',
      BRAIN_EMBED_SECONDARY_DIMENSIONS: '3',
      // Long enough that a loaded machine never times out a fake server that answers; the stall test waits it out.
      BRAIN_EMBED_TIMEOUT_MS: '1000',
    });
  });
  afterEach(async () => {
    await brain?.stop();
    await Promise.all([primary?.close(), secondary?.close()]);
  });

  /** Ingests a document, waits for its vectors (computed in the background) and answers the space they are in. */
  async function ingestedModel(name: string): Promise<string> {
    const id = (await brain.ingest([buildDoc(name)]).expect(200)).body.documents[0].document_id as string;
    await brain.enriched();
    return (await request(brain.url).get(`/brain/documents/${id}`).expect(200)).body.embedding_model;
  }

  async function primaryState(): Promise<string> {
    const providers = (await brain.stats()).embedding_providers as { provider: string; state: string }[];
    return providers.find((p) => p.provider === 'primary')!.state;
  }

  it('declares one vector space per model and embeds chunks and queries with the primary', async () => {
    expect(await ingestedModel('alpha')).toBe('fake-primary');
    const search = await brain.search({ query: 'alpha fallback', strategy: 'semantic' }).expect(200);

    expect(search.body.hits.map((h: { source: string }) => h.source)).toEqual(['docs/alpha.md']);
    expect(primary.requests.map((r) => [r.model, r.input, r.authorization])).toEqual([
      [
        'fake-primary',
        ['alpha (docs/alpha.md)\n# alpha\n\nNotes about the alpha embedding fallback.'],
        'Bearer primary-key-0123456789',
      ],
      ['fake-primary', ['alpha fallback'], 'Bearer primary-key-0123456789'],
    ]);
    expect((await brain.stats()).vectors).toEqual([
      { model: 'fake-primary', dimensions: 4, count: 1 },
      { model: 'fake-secondary', dimensions: 3, count: 0 },
      { model: 'local-sem-v1-384', dimensions: 384, count: 0 },
    ]);
    expect(secondary.requests).toEqual([]);
  });

  it('retries a failing primary 3 times, 0.5 s then 1 s apart, then falls back to the secondary', async () => {
    primary.fallback = { kind: 'status', status: 503 };
    const series = [
      ['brain_embedding_fallbacks_total', { provider: 'primary' }],
      ['brain_embedding_total', { provider: 'primary', outcome: 'failure' }],
      ['brain_embedding_total', { provider: 'secondary', outcome: 'success' }],
      ['brain_circuit_breaker_failures_total', { provider: 'primary' }],
    ] as const;
    const values = () => Promise.all(series.map(([name, labels]) => brain.metric(name, labels)));
    const before = await values();

    expect(await ingestedModel('beta')).toBe('fake-secondary');

    expect(primary.requests).toHaveLength(3);
    expect(brain.waits).toEqual([500, 1000]);
    const after = await values();
    expect(after.map((value, i) => value - before[i])).toEqual([1, 1, 1, 3]);
  });

  it('falls back when the primary stalls past BRAIN_EMBED_TIMEOUT_MS', async () => {
    primary.fallback = { kind: 'stall' };

    expect(await ingestedModel('gamma')).toBe('fake-secondary');
    expect(primary.requests).toHaveLength(3);
  }, 30_000);

  it('opens the circuit after 5 failures, skips the primary, and closes it after 3 trial calls 60 s later', async () => {
    primary.fallback = { kind: 'status', status: 500 };
    const fallbacks = () => brain.metric('brain_embedding_fallbacks_total', { provider: 'primary' });
    const fallbacksBefore = await fallbacks();
    await ingestedModel('one');
    await ingestedModel('two');

    expect(primary.requests).toHaveLength(5);
    expect(brain.waits).toEqual([500, 1000, 500]);
    expect(await primaryState()).toBe('OPEN');
    expect(await brain.metric('brain_circuit_breaker_state', { provider: 'primary' })).toBe(2);
    expect(await ingestedModel('three')).toBe('fake-secondary');
    expect(primary.requests).toHaveLength(5);
    expect((await fallbacks()) - fallbacksBefore).toBe(3);

    primary.fallback = { kind: 'ok' };
    brain.clock.advance(59_000);
    expect(await primaryState()).toBe('OPEN');
    brain.clock.advance(1_000);
    expect(await primaryState()).toBe('HALF_OPEN');
    expect(await brain.metric('brain_circuit_breaker_state', { provider: 'primary' })).toBe(1);
    expect([await ingestedModel('four'), await ingestedModel('five')]).toEqual([
      'fake-primary',
      'fake-primary',
    ]);
    expect(await primaryState()).toBe('HALF_OPEN');
    expect(await ingestedModel('six')).toBe('fake-primary');

    expect(await primaryState()).toBe('CLOSED');
    expect(await brain.metric('brain_circuit_breaker_state', { provider: 'primary' })).toBe(0);
  });

  it('falls back to the local embedder when both cloud providers fail', async () => {
    primary.fallback = { kind: 'status', status: 502 };
    secondary.fallback = { kind: 'garbage' };

    expect(await ingestedModel('delta')).toBe('local-sem-v1-384');
    const search = await brain.search({ query: 'delta fallback', strategy: 'semantic' }).expect(200);

    expect(search.body.hits[0].source).toBe('docs/delta.md');
    expect(secondary.requests.map((r) => r.input[0])).toEqual([expect.stringContaining('# delta')]);
  });

  it('searches every populated space with its own model and fuses the rankings', async () => {
    await ingestedModel('epsilon');
    primary.fallback = { kind: 'status', status: 503 };
    secondary.fallback = { kind: 'status', status: 503 };
    expect(await ingestedModel('zeta')).toBe('local-sem-v1-384');
    primary.fallback = { kind: 'ok' };
    brain.clock.advance(60_000);

    const res = await brain.search({ query: 'embedding fallback notes', strategy: 'semantic' }).expect(200);

    expect(res.body.hits.map((h: { source: string }) => h.source).sort()).toEqual([
      'docs/epsilon.md',
      'docs/zeta.md',
    ]);
    expect(
      res.body.hits.every(
        (h: { strategy: string; score: number }) => h.strategy === 'semantic' && h.score < 0.1,
      ),
    ).toBe(true);
    expect(primary.requests.at(-1)?.input).toEqual(['embedding fallback notes']);
  });

  it('answers semantic searches 503 while no provider of the corpus space works, and hybrid from fulltext, uncached', async () => {
    await ingestedModel('eta');
    primary.fallback = { kind: 'status', status: 503 };

    const semantic = await brain.search({ query: 'eta fallback', strategy: 'semantic' }).expect(503);
    const hybrid = await brain.search({ query: 'eta fallback', strategy: 'hybrid' }).expect(200);

    expect(semantic.body).toMatchObject({ status: 503, code: 'BRAIN_EMBEDDING_UNAVAILABLE' });
    expect(hybrid.body).toMatchObject({ cached: false, degraded: true });
    expect(
      hybrid.body.hits.map((h: { source: string; found_by: string[] }) => [h.source, h.found_by]),
    ).toEqual([['docs/eta.md', ['fulltext']]]);
    expect(secondary.requests).toEqual([]);

    primary.fallback = { kind: 'ok' };
    brain.clock.advance(60_000);
    const recovered = await brain.search({ query: 'eta fallback', strategy: 'hybrid' }).expect(200);
    expect(recovered.body).toMatchObject({ cached: false, degraded: false });
    expect(recovered.body.hits[0].found_by).toEqual(['fulltext', 'semantic']);
  });
});
