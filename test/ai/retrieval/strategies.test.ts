import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import type { SearchStrategy } from '../../../ai/retrieval/hit';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import {
  createFulltextStrategy,
  createHybridStrategy,
  createSemanticStrategy,
} from '../../../ai/retrieval/strategies';
import { UnavailableError } from '../../../platform/errors';
import { buildChunk } from '../factories';

async function buildCorpus() {
  const local = new LocalHashEmbedder();
  const embeddings = new EmbeddingChain({ providers: [local] });
  const fullText = new FullTextIndex();
  const vectors = new InMemoryVectorIndex();
  const chunks = [
    buildChunk({ source: 'docs/a.md', text: 'Reciprocal rank fusion merges ranked lists.' }),
    buildChunk({ source: 'docs/b.md', text: 'The circuit breaker protects embedding providers.' }),
    buildChunk({ index: 'code', source: 'ai/c.ts', text: 'export function fuseRankings() {}' }),
  ];
  fullText.add(chunks);
  await vectors.ensureSpace({ model: local.model, dimensions: local.dimensions });
  const embedded = await embeddings.embed(chunks.map((c) => c.text));
  await vectors.upsert(
    embedded.model,
    chunks.map((c, i) => ({
      chunkId: c.id,
      documentId: c.documentId,
      index: c.index,
      vector: embedded.vectors[i],
    })),
  );
  return {
    chunks,
    fullText,
    vectors,
    embeddings,
    semantic: createSemanticStrategy({ embeddings, vectors, chunks: fullText }),
  };
}

describe('retrieval strategies', () => {
  it('semantic returns the nearest chunks as hits of strategy semantic', async () => {
    const { semantic, chunks } = await buildCorpus();

    const hits = await semantic('circuit breakers for providers', { limit: 1 });

    expect(hits.map((h) => [h.chunkId, h.strategy, h.foundBy])).toEqual([
      [chunks[1].id, 'semantic', ['semantic']],
    ]);
    expect(hits[0].snippet).toBe(
      'The <mark>circuit</mark> <mark>breaker</mark> protects embedding <mark>providers</mark>.',
    );
  });

  it('semantic gives no hits over an empty corpus', async () => {
    const semantic = createSemanticStrategy({
      embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
      vectors: new InMemoryVectorIndex(),
      chunks: new FullTextIndex(),
    });

    expect(await semantic('anything')).toEqual([]);
  });

  it('hybrid fuses fulltext and semantic lists with RRF', async () => {
    const { fullText, semantic, chunks } = await buildCorpus();
    const hybrid = createHybridStrategy(createFulltextStrategy(fullText), semantic);

    const hits = await hybrid('rank fusion', { limit: 2, indexes: ['docs', 'code'] });

    expect(hits[0]).toMatchObject({
      chunkId: chunks[0].id,
      strategy: 'hybrid',
      foundBy: ['fulltext', 'semantic'],
    });
    expect(hits[0].score).toBeCloseTo(2 / 61, 10);
  });

  it('hybrid degrades to the side that works and throws when both fail', async () => {
    const { fullText } = await buildCorpus();
    const failing: SearchStrategy = () =>
      Promise.reject(new UnavailableError('down', 'BRAIN_EMBEDDING_UNAVAILABLE'));

    const failures: unknown[] = [];
    const hits = await createHybridStrategy(createFulltextStrategy(fullText), failing)('circuit breaker', {
      onPartialFailure: (error) => failures.push(error),
    });
    expect(hits.map((h) => h.foundBy)).toEqual([['fulltext']]);
    expect(failures).toEqual([expect.objectContaining({ code: 'BRAIN_EMBEDDING_UNAVAILABLE' })]);

    await expect(createHybridStrategy(failing, failing)('x')).rejects.toThrow('down');
  });
});

describe('snippets in fused results', () => {
  it('asks the inner strategies for no snippets and builds them for the fused hits only', async () => {
    const { fullText, semantic } = await buildCorpus();
    const inner = jest.fn(createFulltextStrategy(fullText));

    const hits = await createHybridStrategy(inner, semantic)('circuit breaker', { limit: 1 });

    expect(inner).toHaveBeenCalledWith('circuit breaker', { limit: 30, snippets: false });
    expect(hits.map((h) => h.snippet)).toEqual([
      'The <mark>circuit</mark> <mark>breaker</mark> protects embedding providers.',
    ]);
    expect((await inner('circuit breaker', { snippets: false }))[0].snippet).toBe('');
  });
});
