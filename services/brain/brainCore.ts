import type { Logger } from 'pino';
import { SearchCache } from '../../ai/cache/searchCache';
import { ChunkingPool } from '../../ai/chunking/chunkingPool';
import { collectBrainStats, type BrainStats } from '../../ai/corpus/corpusStats';
import { FullTextFollower } from '../../ai/corpus/fullTextFollower';
import { Ingestor } from '../../ai/corpus/ingestor';
import { MongoChunkStore } from '../../ai/corpus/mongoChunkStore';
import { MongoEnrichmentJournal } from '../../ai/corpus/mongoEnrichmentJournal';
import { VectorBackfill } from '../../ai/corpus/vectorBackfill';
import { recordStrandedVectors } from '../../ai/corpus/strandedVectors';
import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import type { EmbeddingProvider } from '../../ai/embeddings/provider';
import { ConcatenatedEmbedder } from '../../ai/embeddings/concatenatedEmbedder';
import { SentenceEncoder } from '../../ai/embeddings/sentenceEncoder';
import { realSleep, type Sleep } from '../../ai/embeddings/retry';
import { FullTextIndex } from '../../ai/fulltext/fullTextIndex';
import { QdrantVectorIndex } from '../../ai/retrieval/qdrantVectorIndex';
import type { SearchService } from '../../ai/retrieval/searchService';
import { QuestionAnswerer } from '../../ai/answer/questionAnswerer';
import { CALIBRATED_CONFIDENCE, NEURAL_CONFIDENCE } from '../../ai/answer/answerConfidence';
import { sentenceSimilarity } from '../../ai/embeddings/sentenceSimilarity';
import { loggedSimilarity } from './answerSimilarity';
import { ExtractiveGenerator } from '../../ai/llm/extractiveGenerator';
import { GenerationChain } from '../../ai/llm/generationChain';
import { llmHypothesisWriter } from '../../ai/llm/hypothesisWriter';
import { buildRetrievalSuite } from '../../ai/router/retrievalSuite';
import { DocumentAuthority } from '../../ai/rerank/documentAuthority';
import { SectionCitations } from '../../ai/retrieval/sectionCitations';
import { IngestActivity } from '../../ai/corpus/ingestActivity';
import { GraphIndex } from '../../ai/graph/graphIndex';
import { workerLouvain } from '../../ai/graph/louvainRunner';
import { sharedWordNet } from '../../ai/text/wordNet';
import { MongoGraphSink } from '../../ai/graph/mongoGraphSink';
import { MongoRaptorSink } from '../../ai/raptor/mongoRaptorSink';
import { RaptorIndex } from '../../ai/raptor/raptorIndex';
import type { RoutedSearchService } from '../../ai/router/routedSearchService';
import { BrainRoutedSearchService, BrainSearchService } from './aiErrors';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Stores } from '../../platform/stores';
import { documentEmbeddingProvidersFrom, sentenceEncoderOf } from '../../ai/embeddings/embeddingProviders';
import { OfflineEmbedderPool } from '../../ai/embeddings/offlineEmbedderPool';
import { generationProvidersFrom } from './generationProviders';

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
  /** POST /brain/search/v2: the adaptive router behind the cache. */
  routedSearch: RoutedSearchService;
  /** POST /brain/ask. */
  answerer: QuestionAnswerer;
  generation: GenerationChain;
  cache: SearchCache;
  embeddings: EmbeddingChain;
  /** The chain's offline embedder, always last (the RAPTOR trees' space). */
  localEmbedder: EmbeddingProvider;
  /** The sentence encoder's threads, shared by the documents (when they use it), /brain/ask and memory; closed here. */
  encoder?: SentenceEncoder;
  fullText: FullTextIndex;
  vectors: QdrantVectorIndex;
  store: MongoChunkStore;
  /** The documents' knowledge graph (GRAPH strategy), kept up in the background. */
  graph: GraphIndex;
  /** The RAPTOR trees (one per index), kept up in the background. */
  raptor: RaptorIndex;
  /** Owed vectors on record (searchable first, enriched after) and the background work computing them. */
  journal: MongoEnrichmentJournal;
  backfill: VectorBackfill;
  stats(): Promise<BrainStats>;
  /** Waits for the graph and RAPTOR rounds in flight (not their queues), ends the Louvain worker and the chunking threads (stores are the platform's to close). */
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
  // WordNet's index (the reranker's and the semantic embedder's) is parsed now, in slices, not in the first search.
  sharedWordNet()
    .preload()
    .catch((error: unknown) => logger.warn({ err: error }, 'WordNet preload failed; it loads on first use'));
  const store = new MongoChunkStore(stores.mongo);
  await store.init();
  const retry = {
    attempts: config.BRAIN_EMBED_RETRY_ATTEMPTS,
    baseDelayMs: config.BRAIN_EMBED_RETRY_BASE_MS,
    sleep: context.sleep ?? realSleep,
  };
  const breaker = {
    failureThreshold: config.BRAIN_BREAKER_FAILURE_THRESHOLD,
    recoveryTimeoutMs: config.BRAIN_BREAKER_RECOVERY_SECONDS * 1000,
    halfOpenTrials: config.BRAIN_BREAKER_HALF_OPEN_CALLS,
  };
  // The offline embedder in worker threads (BRAIN_EMBEDDER_THREADS): the documents' vectors and RAPTOR's nodes.
  const providers = documentEmbeddingProvidersFrom(config);
  // The local embedder, always last: the RAPTOR trees' space (offline, so a tree never waits on the network).
  const localEmbedder = providers[providers.length - 1];
  // The offline embedder's threads (alone, or the WordNet part of a concatenated space): entity extraction runs there.
  const offlinePool = [
    localEmbedder,
    ...(localEmbedder instanceof ConcatenatedEmbedder ? localEmbedder.parts.map((p) => p.provider) : []),
  ].find((p): p is OfflineEmbedderPool => p instanceof OfflineEmbedderPool);
  const embeddings = new EmbeddingChain({
    providers,
    clock,
    logger,
    retry,
    breaker,
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
  const idf = (term: string) => fullText.idf(term);
  const summarizer = new ExtractiveGenerator({ idf, maxSentences: 2 });
  const louvain = workerLouvain();
  // Graph, RAPTOR and vector upkeep give way to running ingests (searchable first, enriched after).
  const activity = new IngestActivity();
  const graph = new GraphIndex({
    yieldTo: activity,
    // Entity extraction in the offline embedder's threads, when it has them.
    extract: offlinePool ? (chunks) => offlinePool.extractEntities(chunks) : undefined,
    chunkText: (chunkId) => fullText.get(chunkId)?.text,
    sink: new MongoGraphSink(stores.mongo, clock),
    hierarchy: { louvain },
    logger,
    summarize: async (community, texts) => {
      const passages = texts.map((text, i) => ({ n: i + 1, title: community.title, text }));
      const summary = await summarizer.generate({
        task: 'summary',
        messages: [],
        question: community.title,
        passages,
      });
      return `${community.title}. ${summary}`.slice(0, 1000);
    },
  });
  // Summary vectors in a collection of their own, so chunk searches never meet them.
  const raptorVectors = new QdrantVectorIndex(stores.qdrant, {
    collectionPrefix: `${config.BRAIN_QDRANT_COLLECTION}_raptor`,
    batchSize: 32,
    clock,
    logger,
  });
  await raptorVectors.open([{ model: localEmbedder.model, dimensions: localEmbedder.dimensions }]);
  const raptor = new RaptorIndex({
    yieldTo: activity,
    embedder: localEmbedder,
    idf,
    sink: new MongoRaptorSink(stores.mongo, raptorVectors, clock),
    logger,
  });
  // Subscribed before the rebuild, so the start-up rebuild feeds the graph and the trees too.
  fullText.onDocumentChange((documentId, chunks) => graph.enqueue(documentId, chunks));
  fullText.onDocumentChange((documentId, chunks) => raptor.enqueue(documentId, chunks));
  const authority = new DocumentAuthority();
  fullText.onDocumentChange((documentId, chunks) => authority.apply(documentId, chunks));
  // The numbered sections chunks cite, kept only when auto routes follow them (BRAIN_SECTION_CITATIONS).
  const citations = config.BRAIN_SECTION_CITATIONS ? new SectionCitations() : undefined;
  if (citations) fullText.onDocumentChange((documentId, chunks) => citations.apply(documentId, chunks));
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
  const generation = new GenerationChain({
    providers: generationProvidersFrom(config),
    offline: new ExtractiveGenerator({ idf }),
    clock,
    logger,
    retry,
    breaker,
  });
  const suite = buildRetrievalSuite({
    fullText,
    embeddings,
    vectors,
    logger,
    hypothesisWriter: llmHypothesisWriter(generation),
    graph,
    raptor,
    authority: (documentId) => authority.of(documentId),
    ...(citations ? { citations } : {}),
    answerTypes: config.BRAIN_ANSWER_TYPES,
    router: { rrfK: config.BRAIN_RRF_K },
    calibrate: config.BRAIN_ROUTER_CALIBRATION,
    calibration: { kind: config.BRAIN_ROUTER_PSEUDO_QUERIES },
  });
  const { fulltext, semantic, hybrid } = suite.strategies as Required<typeof suite.strategies>;
  // The brain's edge: a blank query (ai/'s BlankQueryError) answers 400 BRAIN_QUERY_EMPTY at body.query.
  const search = new BrainSearchService({ fulltext, semantic, hybrid }, cache);
  const routedSearch = new BrainRoutedSearchService(suite.router, cache);
  // One set of encoder threads for the documents (when they use it), the answers' evidence and memory.
  const encoder =
    sentenceEncoderOf(localEmbedder) ??
    (config.BRAIN_ASK_SIMILARITY === 'neural' || config.BRAIN_MEMORY_EMBEDDER === 'neural'
      ? new SentenceEncoder({ threads: config.BRAIN_ENCODER_THREADS })
      : undefined);
  const threshold = config.BRAIN_ASK_CONFIDENCE_THRESHOLD;
  const similarity =
    encoder && config.BRAIN_ASK_SIMILARITY === 'neural'
      ? loggedSimilarity(sentenceSimilarity(encoder), logger)
      : undefined;
  const answerer = new QuestionAnswerer(
    {
      router: suite.router,
      generation,
      idf,
      documentFrequency: (term: string) => fullText.documentFrequency(term),
      similarity,
    },
    {
      confidence: { ...(similarity ? NEURAL_CONFIDENCE : CALIBRATED_CONFIDENCE), threshold },
      lexicalConfidence: { ...CALIBRATED_CONFIDENCE, threshold },
    },
  );
  // Large documents are chunked in worker threads: their parse and token counting would stall the event loop.
  const chunking = new ChunkingPool({ threads: config.BRAIN_CHUNKING_THREADS });
  // Searchable first, enriched after: an ingest answers once its chunks are stored and in the fulltext index; the
  // vectors it owes are on record in the journal and computed in batches in the background (resumed at start-up).
  const journal = new MongoEnrichmentJournal(stores.mongo, clock);
  await journal.init();
  const backfill = new VectorBackfill(
    { journal, store, vectors, embeddings },
    // The embedding (in the offline embedder's threads) gives way to running ingests, as graph and RAPTOR do.
    { clock, logger, onVectors: () => cache.invalidate(), yieldTo: activity },
  );
  // Documents left in a space the chain no longer serves (the offline embedder was changed) move to its space.
  const stranded = await recordStrandedVectors(
    { store, journal },
    providers.map((p) => p.model),
    new Date(clock.now()),
  );
  if (stranded.documents > 0)
    logger.info(
      stranded,
      'brain documents in a vector space no provider serves: re-embedding them in the background',
    );
  backfill.kick();
  const ingestor = new Ingestor({
    enrichment: { journal, backfill },
    backgroundIndexes: ['graph', 'raptor'],
    activity,
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
    routedSearch,
    answerer,
    generation,
    cache,
    embeddings,
    localEmbedder,
    encoder,
    fullText,
    vectors,
    store,
    graph,
    raptor,
    journal,
    backfill,
    stats: () =>
      collectBrainStats({
        store,
        vectors,
        search,
        embeddings,
        routedSearch,
        generation,
        graph,
        raptor,
        enrichment: { journal, backfill },
      }),
    close: async () => {
      // Owed vectors stay in the journal for the next start; the batch in flight finishes first.
      // Graph and RAPTOR finish the round in flight; their queues are fed again by the fulltext rebuild at start.
      await backfill.stop();
      await graph.stop();
      await raptor.stop();
      await louvain.close();
      await chunking.close();
      // The sentence encoder's threads (documents, answers' evidence, memory), the offline embedder's threads.
      await encoder?.close();
      await offlinePool?.close();
    },
  };
}
