import type { z } from 'zod';
import type { SearchCacheStats } from '../../ai/cache/searchCache';
import type { BrainStats } from '../../ai/corpus/corpusStats';
import type { IngestResult } from '../../ai/corpus/ingestor';
import type { Hit } from '../../ai/retrieval/hit';
import type { SearchResponse } from '../../ai/retrieval/searchService';
import type { AskResult } from '../../ai/answer/questionAnswerer';
import type { Route } from '../../ai/router/adaptiveRouter';
import type { RoutedSearchResponse } from '../../ai/router/routedSearchService';
import type { RefusedDocument } from './security/ingestSecretGuard';
import type {
  AskResponseSchema,
  RouteSchema,
  SearchV2HitSchema,
  SearchV2ResponseSchema,
  BrainStatsSchema,
  CacheStatsSchema,
  IngestResponseSchema,
  SearchHitSchema,
  SearchResponseSchema,
} from './schemas';

/** A search hit as the API shows it (the full chunk text stays server-side). */
export function presentHit(hit: Hit): z.infer<typeof SearchHitSchema> {
  return {
    id: hit.chunkId,
    document_id: hit.documentId,
    index: hit.index,
    source: hit.source,
    title: hit.title,
    snippet: hit.snippet,
    score: hit.score,
    strategy: hit.strategy,
    found_by: hit.foundBy,
    start_line: hit.startLine,
    end_line: hit.endLine,
    metadata: { ingested_by: hit.ingestedBy ?? null, ingested_at: hit.ingestedAt ?? null },
  };
}

/** The body of POST /brain/search. */
export function presentSearch(query: string, response: SearchResponse): z.infer<typeof SearchResponseSchema> {
  return {
    query,
    strategy: response.strategy,
    cached: response.cached,
    degraded: response.degraded,
    took_ms: Math.round(response.tookMs * 1000) / 1000,
    hits: response.hits.map(presentHit),
  };
}

/** A route as the API shows it. */
export function presentRoute(route: Route): z.infer<typeof RouteSchema> {
  return { class: route.class, strategies: route.strategies, reason: route.reason, reranked: route.reranked };
}

/** A v2 hit: a v1 hit plus the RAPTOR level and the graph entities when the strategy set them. */
export function presentHitV2(hit: Hit): z.infer<typeof SearchV2HitSchema> {
  return {
    ...presentHit(hit),
    ...(hit.level !== undefined ? { level: hit.level } : {}),
    ...(hit.entities ? { entities: hit.entities } : {}),
  };
}

/** The body of POST /brain/search/v2. */
export function presentSearchV2(
  query: string,
  response: Pick<RoutedSearchResponse, 'route' | 'cached' | 'degraded' | 'tookMs'> & { hits: readonly Hit[] },
): z.infer<typeof SearchV2ResponseSchema> {
  return {
    query,
    route: presentRoute(response.route),
    hits: response.hits.map(presentHitV2),
    cached: response.cached,
    degraded: response.degraded,
    took_ms: Math.round(response.tookMs * 1000) / 1000,
  };
}

/** The body of POST /brain/ask. */
export function presentAsk(result: AskResult): z.infer<typeof AskResponseSchema> {
  return {
    answer: result.answer,
    citations: result.citations.map((c) => ({
      n: c.n,
      chunk_id: c.chunkId,
      source: c.source,
      title: c.title,
      start_line: c.startLine,
      end_line: c.endLine,
      quote: c.quote,
    })),
    route: presentRoute(result.route),
    model: result.model,
    grounded: result.grounded,
    degraded: result.degraded,
  };
}

/** The body of POST /brain/ingest: one result per document, in request order, and totals. */
export function presentIngest(
  results: IngestResult[],
  refused: readonly RefusedDocument[] = [],
): z.infer<typeof IngestResponseSchema> {
  const count = (status: IngestResult['status']) => results.filter((r) => r.status === status).length;
  const sum = (field: 'chunks' | 'embedded' | 'removed') => results.reduce((total, r) => total + r[field], 0);
  return {
    documents: results.map((r) => ({
      document_id: r.documentId,
      index: r.index,
      source: r.source,
      title: r.title,
      status: r.status,
      chunks: r.chunks,
      embedded: r.embedded,
      removed: r.removed,
      embedding_model: r.embeddingModel,
      indexed: r.indexed as ('fulltext' | 'vectors' | 'graph' | 'raptor')[],
      pending: r.pending as ('fulltext' | 'vectors' | 'graph' | 'raptor')[],
    })),
    refused: refused.map((r) => ({
      position: r.position,
      source: r.source,
      code: 'BRAIN_SECRET_DETECTED' as const,
      findings: r.findings.map(({ kind, rule, line }) => ({ kind, rule, line })),
    })),
    totals: {
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      chunks: sum('chunks'),
      embedded: sum('embedded'),
      removed: sum('removed'),
    },
  };
}

/** The body of GET /brain/stats. */
export function presentStats(stats: BrainStats): z.infer<typeof BrainStatsSchema> {
  return {
    documents: stats.documents,
    chunks: stats.chunks,
    total_documents: Object.values(stats.documents).reduce((sum, n) => sum + n, 0),
    total_chunks: stats.totalChunks,
    vectors: stats.vectors,
    last_ingest_at: stats.lastIngestAt,
    last_ingest_by: stats.lastIngestBy,
    documents_by_ingester: stats.documentsByIngester.map((row) => ({
      ingested_by: row.ingestedBy,
      documents: row.documents,
    })),
    queries: stats.queries,
    embedding_providers: stats.embeddingProviders,
    generation_providers: stats.generationProviders ?? [],
    routes: stats.routes ?? { SIMPLE: 0, FACTUAL: 0, EXPLORATORY: 0, COMPLEX: 0, named: 0 },
    graph: {
      state: stats.graph?.state ?? 'empty',
      entities: stats.graph?.entities ?? 0,
      relations: stats.graph?.relations ?? 0,
      communities_per_level: stats.graph?.communitiesPerLevel ?? [],
      pending_documents: stats.graph?.pendingDocuments ?? 0,
    },
    raptor: {
      state: stats.raptor?.state ?? 'empty',
      nodes_per_level: stats.raptor?.nodesPerLevel ?? [],
      pending_documents: stats.raptor?.pendingDocuments ?? 0,
      summaries_written: stats.raptor?.summariesWritten ?? 0,
    },
    memory_vectors: stats.memoryVectors ?? null,
    enrichment: stats.enrichment
      ? (Object.fromEntries(
          Object.entries(stats.enrichment).map(([name, e]) => [
            name,
            {
              unit: e.unit,
              state: e.state,
              pending: e.pending,
              pending_documents: e.pendingDocuments,
              done: e.done,
              rate: e.rate,
              oldest_pending_at: e.oldestPendingAt,
            },
          ]),
        ) as NonNullable<z.infer<typeof BrainStatsSchema>['enrichment']>)
      : null,
  };
}

/** The body of GET /brain/cache/stats. */
export function presentCacheStats(stats: SearchCacheStats): z.infer<typeof CacheStatsSchema> {
  return {
    l1: {
      hits: stats.l1.hits,
      misses: stats.l1.misses,
      hit_rate: stats.l1.hitRate,
      entries: stats.l1.entries,
    },
    l2: {
      hits: stats.l2.hits,
      misses: stats.l2.misses,
      hit_rate: stats.l2.hitRate,
      enabled: stats.l2.enabled,
      errors: stats.l2.errors,
    },
    generation: stats.generation,
  };
}
