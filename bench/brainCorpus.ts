import { join } from 'node:path';
import type { ChunkRecord } from '../models/corpusRecords';
import { Ingestor } from '../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../ai/corpus/memoryChunkStore';
import { ingestFolder } from '../ai/corpus/folderIngest';
import { EmbeddingChain } from '../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../ai/fulltext/fullTextIndex';
import type { SearchStrategy } from '../ai/retrieval/hit';
import { InMemoryVectorIndex } from '../ai/retrieval/memoryVectorIndex';
import {
  createFulltextStrategy,
  createHybridStrategy,
  createSemanticStrategy,
} from '../ai/retrieval/strategies';

const ROOT = join(__dirname, '..');
/**
 * The repository's own docs, code and tests: the brain's first corpus (benches excluded: they hold the
 * answers). The same selection `npm run brain:ingest -- .` makes, minus bench/, world data and contracts.
 */
export const CORPUS_PATHS = ['README.md', 'docs', 'ai', 'platform', 'services', 'models', 'test'];

/** An in-memory brain: store, indexes, local embedder, ingestor and the three strategies; exact vectors by default. */
export function buildInMemoryBrain(options: { approximateVectors?: boolean } = {}) {
  const store = new InMemoryChunkStore();
  const embeddings = new EmbeddingChain({ providers: [new LocalHashEmbedder()] });
  const fullText = new FullTextIndex();
  const vectors = new InMemoryVectorIndex({ approximate: options.approximateVectors });
  const ingestor = new Ingestor({ store, vectors, fullText, embeddings });
  const fulltext = createFulltextStrategy(fullText);
  const semantic = createSemanticStrategy({ embeddings, vectors, chunks: fullText });
  const strategies: Record<'fulltext' | 'semantic' | 'hybrid', SearchStrategy> = {
    fulltext,
    semantic,
    hybrid: createHybridStrategy(fulltext, semantic),
  };
  return { store, embeddings, fullText, vectors, ingestor, strategies };
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
