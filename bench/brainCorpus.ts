import { join } from 'node:path';
import type { ChunkRecord } from '../models/corpusRecords';
import { Ingestor } from '../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../ai/corpus/memoryChunkStore';
import { ingestFolder } from '../ai/corpus/folderIngest';
import { EmbeddingChain } from '../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../ai/embeddings/localSemanticEmbedder';
import { FullTextIndex } from '../ai/fulltext/fullTextIndex';
import type { SearchStrategy } from '../ai/retrieval/hit';
import { InMemoryVectorIndex } from '../ai/retrieval/memoryVectorIndex';
import { buildRetrievalSuite } from '../ai/router/retrievalSuite';
import { GraphIndex } from '../ai/graph/graphIndex';
import { RaptorIndex } from '../ai/raptor/raptorIndex';
import { DocumentAuthority } from '../ai/rerank/documentAuthority';
import { SectionCitations } from '../ai/retrieval/sectionCitations';

const ROOT = join(__dirname, '..');
/**
 * The repository's own docs, code and tests: the brain's first corpus (benches excluded: they hold the
 * answers). The same selection `npm run brain:ingest -- .` makes, minus bench/, world data and contracts.
 */
export const CORPUS_PATHS = ['README.md', 'docs', 'ai', 'platform', 'services', 'models', 'test'];

/**
 * An in-memory brain: store, indexes, a local embedder (`semantic`, the default, or the older `hash`),
 * ingestor, the strategies and the router of ai/router/retrievalSuite; exact vectors by default; the RAPTOR
 * trees unless `raptor: false` (the before/after of the router's plans).
 */
export function buildInMemoryBrain(
  options: { approximateVectors?: boolean; embedder?: 'semantic' | 'hash'; raptor?: boolean } = {},
) {
  const store = new InMemoryChunkStore();
  const local = options.embedder === 'hash' ? new LocalHashEmbedder() : new LocalSemanticEmbedder();
  const embeddings = new EmbeddingChain({ providers: [local] });
  const fullText = new FullTextIndex();
  const vectors = new InMemoryVectorIndex({ approximate: options.approximateVectors });
  const ingestor = new Ingestor({ store, vectors, fullText, embeddings });
  const graph = new GraphIndex({ chunkText: (id) => fullText.get(id)?.text });
  fullText.onDocumentChange((documentId, chunks) => graph.enqueue(documentId, chunks));
  // Citation authority, the reranker's document prior, follows the corpus as the graph does.
  const authority = new DocumentAuthority();
  fullText.onDocumentChange((documentId, chunks) => authority.apply(documentId, chunks));
  // Numbered sections, so an auto route follows its candidates' citations (SPEC 4.8 → that section).
  const citations = new SectionCitations();
  fullText.onDocumentChange((documentId, chunks) => citations.apply(documentId, chunks));
  // The tree's own space: the offline semantic embedder, as the brain's core does.
  const raptor = new RaptorIndex({ embedder: new LocalSemanticEmbedder(), idf: (t) => fullText.idf(t) });
  if (options.raptor !== false)
    fullText.onDocumentChange((documentId, chunks) => raptor.enqueue(documentId, chunks));
  const suite = buildRetrievalSuite({
    fullText,
    embeddings,
    vectors,
    graph,
    authority: (documentId) => authority.of(documentId),
    citations,
    ...(options.raptor !== false ? { raptor } : {}),
  });
  const strategies = suite.strategies as Record<'fulltext' | 'semantic' | 'hybrid', SearchStrategy> &
    typeof suite.strategies;
  return {
    store,
    embeddings,
    fullText,
    vectors,
    ingestor,
    graph,
    raptor,
    strategies,
    router: suite.router,
    reranker: suite.reranker,
  };
}

/**
 * Ingests CORPUS_PATHS through the real ingest pipeline, a file at a time as the CLI does (files the
 * validation rejects are skipped). Returns the chunk and file counts.
 */
export async function ingestRepository(
  brain: ReturnType<typeof buildInMemoryBrain>,
): Promise<{ chunks: number; files: number }> {
  let chunks = 0;
  let files = 0;
  for (const path of CORPUS_PATHS) {
    const report = await ingestFolder(brain.ingestor, ROOT, path);
    chunks += report.results.reduce((sum, r) => sum + r.chunks, 0);
    files += report.results.length;
  }
  await brain.graph.whenIdle();
  await brain.raptor.whenIdle();
  return { chunks, files };
}

/** Loads prepared chunks straight into the indexes (synthetic corpora that skip chunking). */
export async function loadChunks(
  brain: ReturnType<typeof buildInMemoryBrain>,
  chunks: ChunkRecord[],
): Promise<void> {
  brain.fullText.rebuild(chunks);
  const embedded = await brain.embeddings.embed(chunks.map((c) => c.text));
  await brain.vectors.ensureSpace({ model: embedded.model, dimensions: embedded.vectors[0].length });
  await brain.vectors.upsert(
    embedded.model,
    chunks.map((c, i) => ({
      chunkId: c.id,
      documentId: c.documentId,
      index: c.index,
      vector: embedded.vectors[i],
    })),
  );
}
