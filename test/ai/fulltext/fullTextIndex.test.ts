import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { buildChunk } from '../factories';

function buildIndex() {
  const index = new FullTextIndex();
  const breaker = buildChunk({
    source: 'docs/SPEC.md',
    text: 'The circuit breaker opens after 5 failures.',
    headingPath: ['Limits'],
  });
  const cache = buildChunk({ source: 'docs/SPEC.md', text: 'Search results are cached at two levels.' });
  const code = buildChunk({
    index: 'code',
    source: 'ai/embeddings/circuitBreaker.ts',
    kind: 'code',
    symbols: ['CircuitBreaker'],
    text: 'export class CircuitBreaker {}',
  });
  const test = buildChunk({
    index: 'tests',
    source: 'test/breaker.test.ts',
    kind: 'code',
    text: "describe('breaker opens', () => {})",
  });
  index.add([breaker, cache, code, test]);
  return { index, breaker, cache, code, test };
}

describe('FullTextIndex', () => {
  it('ranks by BM25 with symbol boosts and highlights matched words', () => {
    const { index, code, breaker } = buildIndex();

    const hits = index.search('circuit breaker', { limit: 2 });

    expect(hits.map((h) => h.chunkId)).toEqual([code.id, breaker.id]);
    expect(hits[0]).toMatchObject({
      strategy: 'fulltext',
      foundBy: ['fulltext'],
      title: 'Guide › CircuitBreaker',
      index: 'code',
    });
    expect(hits[1].snippet).toBe('The <mark>circuit</mark> <mark>breaker</mark> opens after 5 failures.');
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('filters by index', () => {
    const { index, test } = buildIndex();

    expect(index.search('breaker', { indexes: ['tests'] }).map((h) => h.chunkId)).toEqual([test.id]);
  });

  it('matches inflections and identifier parts', () => {
    const { index, cache } = buildIndex();

    expect(index.search('caching level').map((h) => h.chunkId)).toEqual([cache.id]);
  });

  it('returns nothing for a query of stop words only', () => {
    expect(buildIndex().index.search('what is the')).toEqual([]);
  });

  it('replaces a document on re-ingest', () => {
    const { index, breaker, cache } = buildIndex();
    const replacement = buildChunk({ source: 'docs/SPEC.md', text: 'Breakers recover after 60 seconds.' });

    index.replaceDocument(breaker.documentId, [replacement]);

    expect(index.get(cache.id)).toBeUndefined();
    expect(index.search('breaker', { indexes: ['docs'] }).map((h) => h.chunkId)).toEqual([replacement.id]);
    expect(index.countsByIndex()).toEqual({ docs: 1, code: 1, tests: 1 });
  });

  it('replaces a large document in steps within the shared bulk budget, a turn of the event loop between', async () => {
    const { index, breaker } = buildIndex();
    // 2,000 chunks take well over one turn's budget (10 ms) to index.
    const chunks = Array.from({ length: 2_000 }, (_, i) =>
      buildChunk({
        source: 'docs/SPEC.md',
        text: `Breaker rule ${i} trips after ${i} failures of the upstream call.`,
      }),
    );
    const changes: number[] = [];
    index.onDocumentChange((_id, changed) => changes.push(changed.length));
    const replacing = index.replaceDocumentInSlices(breaker.documentId, chunks, { sliceChunks: 10 });
    // The first step is in before the first turn; later ones within the turns' budgets, not all at once.
    expect(index.chunkIdsOf(breaker.documentId)).toHaveLength(10);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const afterTwoTurns = index.chunkIdsOf(breaker.documentId).length;
    expect(afterTwoTurns).toBeGreaterThan(10);
    expect(afterTwoTurns).toBeLessThan(2_000);
    await replacing;
    expect(index.chunkIdsOf(breaker.documentId)).toHaveLength(2_000);
    expect(index.search('breaker rule 1717', { indexes: ['docs'] })[0].chunkId).toBe(chunks[1717].id);
    expect(changes).toEqual([2_000]);
  });

  it('removes chunks by id and rebuilds from records', async () => {
    const { index, code, test, breaker } = buildIndex();

    index.remove([code.id]);
    expect(index.search('CircuitBreaker', { indexes: ['code'] })).toEqual([]);

    index.rebuild([test, breaker]);
    expect(index.size).toBe(2);
    expect([...(await index.getChunks([test.id, code.id])).keys()]).toEqual([test.id]);
  });
});
