import { collectBrainStats } from '../../../ai/corpus/corpusStats';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { ManualClock } from '../../../platform/clock';
import { buildSourceDocument } from '../factories';

describe('collectBrainStats', () => {
  it('reports counts per index, vectors per model, last ingest, queries and provider states', async () => {
    const store = new InMemoryChunkStore();
    const vectors = new InMemoryVectorIndex();
    const embeddings = new EmbeddingChain({ providers: [new LocalHashEmbedder()] });
    const ingestor = new Ingestor({
      store,
      vectors,
      fullText: new FullTextIndex(),
      embeddings,
      clock: new ManualClock(),
    });
    await ingestor.ingest([
      buildSourceDocument(),
      buildSourceDocument({ source: 'test/a.test.ts', index: 'tests', text: "it('works', () => {});" }),
    ]);

    const stats = await collectBrainStats({
      store,
      vectors,
      embeddings,
      search: { queryCounts: () => ({ fulltext: 1, semantic: 0, hybrid: 2 }) },
    });

    expect(stats).toEqual({
      documents: { docs: 1, code: 0, tests: 1 },
      chunks: { docs: 1, code: 0, tests: 1 },
      totalChunks: 2,
      vectors: [{ model: 'local-hash-v1-384', dimensions: 384, count: 2 }],
      lastIngestAt: '2026-01-01T00:00:00.000Z',
      lastIngestBy: 'system',
      documentsByIngester: [{ ingestedBy: 'system', documents: 2 }],
      queries: { fulltext: 1, semantic: 0, hybrid: 2 },
      embeddingProviders: [{ provider: 'local', model: 'local-hash-v1-384', state: 'CLOSED' }],
    });
  });
});
