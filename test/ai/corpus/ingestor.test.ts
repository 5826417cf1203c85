import { SearchCache } from '../../../ai/cache/searchCache';
import type { SourceDocument } from '../../../models/corpusRecords';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import type { EmbeddingProvider } from '../../../ai/embeddings/provider';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { ManualClock } from '../../../platform/clock';
import { ValidationError } from '../../../platform/errors';
import { buildHit, buildSourceDocument } from '../factories';

const GUIDE = '# Guide\n\n## Search\n\nHybrid search fuses rankings.\n\n## Cache\n\nTwo levels of cache.\n';

/** A provider that can be switched off, to force the chain onto the local embedder. */
function buildSwitchableProvider(): EmbeddingProvider & { down: boolean } {
  return {
    id: 'cloud',
    model: 'cloud-3',
    dimensions: 3,
    down: false,
    async embed(texts) {
      if (this.down) throw new Error('cloud down');
      return texts.map((t) => [t.length, 1, 0]);
    },
  };
}

function buildIngestor() {
  const store = new InMemoryChunkStore();
  const vectors = new InMemoryVectorIndex();
  const fullText = new FullTextIndex();
  const cache = new SearchCache();
  const cloud = buildSwitchableProvider();
  const embeddings = new EmbeddingChain({
    providers: [cloud, new LocalHashEmbedder()],
    retry: { attempts: 1 },
  });
  const clock = new ManualClock();
  const ingestor = new Ingestor({ store, vectors, fullText, embeddings, cache, clock });
  return { ingestor, store, vectors, fullText, cache, cloud, clock };
}

const guide = (overrides: Partial<SourceDocument> = {}) =>
  buildSourceDocument({ source: 'docs/guide.md', text: GUIDE, ...overrides });

describe('Ingestor', () => {
  it('stores the document, its chunks, their vectors and the BM25 entries', async () => {
    const { ingestor, store, vectors, fullText } = buildIngestor();

    const [result] = await ingestor.ingest([guide()]);

    expect(result).toMatchObject({
      status: 'created',
      title: 'Guide',
      chunks: 2,
      embedded: 2,
      removed: 0,
      embeddingModel: 'cloud-3',
    });
    expect(await store.counts()).toEqual({
      documents: { docs: 1, code: 0, tests: 0 },
      chunks: { docs: 2, code: 0, tests: 0 },
      lastIngestAt: new Date(Date.UTC(2026, 0, 1)),
      lastIngestBy: 'system',
      documentsByIngester: [{ ingestedBy: 'system', documents: 1 }],
    });
    expect(await vectors.spaces()).toEqual([{ model: 'cloud-3', dimensions: 3, count: 2 }]);
    expect(fullText.search('fuses').map((h) => h.headingPath)).toEqual([['Guide', 'Search']]);
  });

  it('re-embeds only changed chunks and removes stale ones on re-ingest', async () => {
    const { ingestor, vectors, fullText } = buildIngestor();
    await ingestor.ingest([guide()]);

    const [result] = await ingestor.ingest([
      guide({ text: GUIDE.replace('Two levels of cache.', 'An LRU and Redis.') }),
    ]);

    expect(result).toMatchObject({ status: 'updated', chunks: 2, embedded: 1, removed: 1 });
    expect((await vectors.spaces())[0].count).toBe(2);
    expect(fullText.search('levels')).toEqual([]);
    expect(fullText.search('redis')).toHaveLength(1);
  });

  it('reports an identical re-ingest as unchanged and keeps the cache', async () => {
    const { ingestor, cache } = buildIngestor();
    await ingestor.ingest([guide()]);
    await cache.set({ query: 'q', strategy: 'hybrid', limit: 10 }, [buildHit()]);

    const [result] = await ingestor.ingest([guide()]);

    expect(result).toMatchObject({ status: 'unchanged', embedded: 0 });
    expect(await cache.get({ query: 'q', strategy: 'hybrid', limit: 10 })).toHaveLength(1);
  });

  it('invalidates the search cache after a change', async () => {
    const { ingestor, cache } = buildIngestor();
    await cache.set({ query: 'q', strategy: 'hybrid', limit: 10 }, [buildHit()]);

    await ingestor.ingest([guide()]);

    expect(await cache.get({ query: 'q', strategy: 'hybrid', limit: 10 })).toBeUndefined();
  });

  it('moves a document to one space when new chunks fall back to another model', async () => {
    const { ingestor, vectors, cloud } = buildIngestor();
    await ingestor.ingest([guide()]);
    cloud.down = true;

    const [result] = await ingestor.ingest([guide({ text: `${GUIDE}\n## Ask\n\nAnswers.\n` })]);

    expect(result).toMatchObject({ embedded: 3, embeddingModel: 'local-hash-v1-384' });
    expect(await vectors.spaces()).toEqual([
      { model: 'cloud-3', dimensions: 3, count: 0 },
      { model: 'local-hash-v1-384', dimensions: 384, count: 3 },
    ]);
  });

  it('rejects the whole batch with every failing field and writes nothing', async () => {
    const { ingestor, store, vectors } = buildIngestor();

    const error = await ingestor
      .ingest(
        [guide(), buildSourceDocument({ source: 'x.md', index: 'wiki' }), guide({ text: '' }), guide()],
        'body.documents',
      )
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ValidationError);
    expect([(error as ValidationError).code, (error as ValidationError).errors]).toEqual([
      'BRAIN_UNKNOWN_INDEX',
      [
        { path: 'body.documents.1.index', message: 'must be one of docs, code, tests' },
        { path: 'body.documents.2.text', message: 'must contain non-whitespace text' },
        { path: 'body.documents.3.source', message: 'repeats the source of body.documents.0' },
      ],
    ]);
    expect((await store.counts()).chunks).toEqual({ docs: 0, code: 0, tests: 0 });
    expect(await vectors.spaces()).toEqual([]);
  });
});
