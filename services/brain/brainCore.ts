import type { Logger } from 'pino';
import { SearchCache } from '../../ai/cache/searchCache';
import { ChunkingPool } from '../../ai/chunking/chunkingPool';
import { collectBrainStats, type BrainStats } from '../../ai/corpus/corpusStats';
import { FullTextFollower } from '../../ai/corpus/fullTextFollower';
import { Ingestor } from '../../ai/corpus/ingestor';
import { MongoChunkStore } from '../../ai/corpus/mongoChunkStore';
import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { realSleep, type Sleep } from '../../ai/embeddings/retry';
import { FullTextIndex } from '../../ai/fulltext/fullTextIndex';
import { QdrantVectorIndex } from '../../ai/retrieval/qdrantVectorIndex';
import { SearchService } from '../../ai/retrieval/searchService';
import {
  createFulltextStrategy,
  createHybridStrategy,
  createSemanticStrategy,
} from '../../ai/retrieval/strategies';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Stores } from '../../platform/stores';
import { embeddingProvidersFrom } from './embeddingProviders';

/** What the brain is built from. `sleep` (retry backoff waits) defaults to real timers; tests pass their own. */
export interface BrainCoreContext {
  config: Config;
  stores: Pick<Stores, 'mongo' | 'qdrant' | 'redis'>;
  clock: Clock;
  logger: Logger;
  sleep?: Sleep;
}

/** The brain's retrieval core, wired to the platform's stores; shared by the HTTP area and the ingest CLI. */
export interface BrainCore {
  ingestor: Ingestor;
  search: SearchService;
  cache: SearchCache;
  embeddings: EmbeddingChain;
  fullText: FullTextIndex;
  vectors: QdrantVectorIndex;
  store: MongoChunkStore;
  stats(): Promise<BrainStats>;
  /** Stops the chunking threads (stores are the platform's to close). */
  close(): Promise<void>;
}

/**
 * Opens the brain on the platform's stores: documents and chunks in MongoDB, vectors in Qdrant (one named
 * vector per embedding model of the chain), the search cache on Redis when REDIS_URL is set (L1 only
 * otherwise), and the BM25 index rebuilt in memory from MongoDB, kept in step by ingests here and, through
 * the cache generation, by ingests elsewhere.
 */
export async function openBrainCore(context: BrainCoreContext): Promise<BrainCore> {
  const { config, stores, clock } = context;
  const logger = context.logger.child({ component: 'brain' });
  const store = new MongoChunkStore(stores.mongo);
  await store.init();
  const embeddings = new EmbeddingChain({
    providers: embeddingProvidersFrom(config),
    clock,
    logger,
    retry: {
      attempts: config.BRAIN_EMBED_RETRY_ATTEMPTS,
      baseDelayMs: config.BRAIN_EMBED_RETRY_BASE_MS,
      sleep: context.sleep ?? realSleep,
    },
    breaker: {
      failureThreshold: config.BRAIN_BREAKER_FAILURE_THRESHOLD,
      recoveryTimeoutMs: config.BRAIN_BREAKER_RECOVERY_SECONDS * 1000,
      halfOpenTrials: config.BRAIN_BREAKER_HALF_OPEN_CALLS,
    },
  });
  const vectors = new QdrantVectorIndex(stores.qdrant, {
    collectionPrefix: config.BRAIN_QDRANT_COLLECTION,
    // Small upserts: each is one uninterrupted piece of work for the embedded (in-process) Qdrant (measured: 256
    // points blocked the event loop for 0.7-1.9 s at load 17; 64 keep each piece a quarter of that).
    batchSize: 32,
    clock,
    logger,
  });
  await vectors.open(embeddings.spaces());

  const fullText = new FullTextIndex();
  const follower = new FullTextFollower(store, fullText, { logger });
  const chunkCount = await follower.rebuild();
  logger.info({ chunks: chunkCount, collection: vectors.collectionName }, 'brain fulltext index rebuilt');

  const cache = new SearchCache({
    redis: stores.redis,
    keyPrefix: config.BRAIN_CACHE_KEY_PREFIX,
    l1MaxEntries: config.BRAIN_CACHE_MEMORY_MAX_ENTRIES,
    l1TtlMs: config.BRAIN_CACHE_MEMORY_TTL_SECONDS * 1000,
    l2TtlSeconds: config.BRAIN_CACHE_REDIS_TTL_SECONDS,
    logger,
    chunkText: (chunkId) => fullText.get(chunkId)?.text,
    onForeignInvalidation: async () => {
      await follower.catchUp();
    },
  });
  const fulltext = createFulltextStrategy(fullText);
  const semantic = createSemanticStrategy({ embeddings, vectors, chunks: fullText, logger });
  const search = new SearchService(
    { fulltext, semantic, hybrid: createHybridStrategy(fulltext, semantic, { logger }) },
    cache,
  );
  // Large documents are chunked in worker threads: their parse and token counting would stall the event loop.
  const chunking = new ChunkingPool({ threads: config.BRAIN_CHUNKING_THREADS });
  const ingestor = new Ingestor({
    chunking,
    store,
    vectors,
    fullText,
    embeddings,
    cache,
    clock,
    logger,
    limits: { maxBytes: config.BRAIN_MAX_DOCUMENT_BYTES, maxSourceLength: 2048 },
  });
  return {
    ingestor,
    search,
    cache,
    embeddings,
    fullText,
    vectors,
    store,
    stats: () => collectBrainStats({ store, vectors, search, embeddings }),
    close: () => chunking.close(),
  };
}
