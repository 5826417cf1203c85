import type { IndexName } from '../../models/corpusRecords';
import type { CircuitState } from '../embeddings/circuitBreaker';
import type { EmbeddingChain } from '../embeddings/embeddingChain';
import type { SearchService, ServedStrategy } from '../retrieval/searchService';
import type { VectorIndex, VectorSpaceStats } from '../retrieval/vectorIndex';
import type { GenerationChain } from '../llm/generationChain';
import type { RoutedSearchService } from '../router/routedSearchService';
import type { QueryClass } from '../router/queryClassifier';
import type { GraphIndex, GraphStats } from '../graph/graphIndex';
import type { RaptorIndex, RaptorStats } from '../raptor/raptorIndex';
import type { ChunkStore } from './chunkStore';
import type { EnrichmentJournal } from './enrichmentJournal';
import type { VectorBackfill } from './vectorBackfill';

/** The body of GET /brain/stats. */
export interface BrainStats {
  documents: Record<IndexName, number>;
  chunks: Record<IndexName, number>;
  totalChunks: number;
  vectors: VectorSpaceStats[];
  /** ISO time of the latest ingest, null before any. */
  lastIngestAt: string | null;
  /** Who ingested the latest version; null before any ingest or when not recorded. */
  lastIngestBy: string | null;
  documentsByIngester: { ingestedBy: string; documents: number }[];
  queries: Record<ServedStrategy, number>;
  embeddingProviders: { provider: string; model: string; state: CircuitState }[];
  /** Routed (v2) searches by router class since start-up; `named` when the request chose the strategy. */
  routes?: Record<QueryClass | 'named', number>;
  /** The generation chain's providers (LLMs, then the extractive generator). */
  generationProviders?: { provider: string; model: string; state: CircuitState }[];
  /** The knowledge graph: entities, relations, communities per level and upkeep state. */
  graph?: GraphStats;
  /** The RAPTOR trees: build state and nodes per level. */
  raptor?: RaptorStats;
  /** The memories' vector space and its background re-embedding (services/brain/memory/memoryReembedding.ts). */
  memoryVectors?: MemoryVectorStats;
  /** Background enrichment per index (searchable first, enriched after): what is owed, done, how fast. */
  enrichment?: Record<'vectors' | 'graph' | 'raptor', EnrichmentStats>;
}

/** One background index's catching up: `unit` says what pending and done count. */
export interface EnrichmentStats {
  unit: 'chunks' | 'documents';
  state: string;
  pending: number;
  pendingDocuments: number;
  done: number;
  /** Units per second over the last minute of work. */
  rate: number;
  /** ISO time the oldest pending work was queued; null when nothing is pending. */
  oldestPendingAt: string | null;
}

async function enrichmentStats(
  deps: Parameters<typeof collectBrainStats>[0],
): Promise<BrainStats['enrichment']> {
  if (!deps.enrichment) return undefined;
  const backlog = await deps.enrichment.journal.backlog();
  const backfill = deps.enrichment.backfill.stats();
  const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);
  const graph = deps.graph?.stats();
  const raptor = deps.raptor?.stats();
  const documents = (
    stats: { state: string; pendingDocuments: number } & Partial<
      Record<'processedDocuments' | 'documentsPerSecond', number>
    > & {
        oldestPendingAt?: number | null;
      },
  ): EnrichmentStats => ({
    unit: 'documents',
    state: stats.state,
    pending: stats.pendingDocuments,
    pendingDocuments: stats.pendingDocuments,
    done: stats.processedDocuments ?? 0,
    rate: stats.documentsPerSecond ?? 0,
    oldestPendingAt: iso(stats.oldestPendingAt),
  });
  const none = { state: 'empty', pendingDocuments: 0 };
  return {
    vectors: {
      unit: 'chunks',
      state: backfill.state,
      pending: backlog.chunks,
      pendingDocuments: backlog.documents,
      done: backfill.done,
      rate: backfill.rate,
      oldestPendingAt: backlog.oldestQueuedAt?.toISOString() ?? null,
    },
    graph: documents(graph ?? none),
    raptor: documents(raptor ?? none),
  };
}

/**
 * Memories moving into their vector space: `state` of the re-embedding, written since start-up, still to write
 * (re-embedding and new memories whose vector follows remember), and since when the oldest new one waits.
 */
export interface MemoryVectorStats {
  model: string;
  state: 'idle' | 'running' | 'done' | 'failed';
  reembedded: number;
  pending: number;
  oldest_pending_at: string | null;
}

/** Gathers corpus, vector, query and provider figures for GET /brain/stats. */
export async function collectBrainStats(deps: {
  store: ChunkStore;
  vectors: VectorIndex;
  search: Pick<SearchService, 'queryCounts'>;
  embeddings: Pick<EmbeddingChain, 'breakerStates'>;
  routedSearch?: Pick<RoutedSearchService, 'classCounts'>;
  generation?: Pick<GenerationChain, 'breakerStates'>;
  graph?: Pick<GraphIndex, 'stats'>;
  raptor?: Pick<RaptorIndex, 'stats'>;
  enrichment?: { journal: Pick<EnrichmentJournal, 'backlog'>; backfill: Pick<VectorBackfill, 'stats'> };
}): Promise<BrainStats> {
  const [counts, vectors] = await Promise.all([deps.store.counts(), deps.vectors.spaces()]);
  return {
    documents: counts.documents,
    chunks: counts.chunks,
    totalChunks: Object.values(counts.chunks).reduce((sum, n) => sum + n, 0),
    vectors,
    lastIngestAt: counts.lastIngestAt?.toISOString() ?? null,
    lastIngestBy: counts.lastIngestBy,
    documentsByIngester: counts.documentsByIngester,
    queries: deps.search.queryCounts(),
    embeddingProviders: deps.embeddings.breakerStates(),
    routes: deps.routedSearch?.classCounts(),
    generationProviders: deps.generation?.breakerStates(),
    graph: deps.graph?.stats(),
    raptor: deps.raptor?.stats(),
    enrichment: await enrichmentStats(deps),
  };
}
