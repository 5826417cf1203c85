import { performance } from 'node:perf_hooks';
import { BlankQueryError } from './blankQueryError';
import { searchLatency, searchResultCount, searchTotal } from '../../platform/metrics';
import type { SearchCache } from '../cache/searchCache';
import type { IndexName } from '../../models/corpusRecords';
import { DEFAULT_SEARCH_LIMIT, type Hit, type SearchStrategy } from './hit';

/** Strategies POST /brain/search serves in this issue. */
export const SERVED_STRATEGIES = ['fulltext', 'semantic', 'hybrid'] as const;
export type ServedStrategy = (typeof SERVED_STRATEGIES)[number];

/** A search as the route passes it on. Defaults: hybrid, all indexes, 10 hits. */
export interface SearchRequest {
  query: string;
  strategy?: ServedStrategy;
  indexes?: IndexName[];
  limit?: number;
}

/** The hits plus how they were produced. */
export interface SearchResponse {
  /** Shared with the cache: read-only. */
  hits: readonly Hit[];
  strategy: ServedStrategy;
  cached: boolean;
  /** Part of the search failed and the hits come from the rest (not cached). */
  degraded: boolean;
  tookMs: number;
}

/**
 * Runs a search through the cache and the chosen strategy and feeds the search metrics of SPEC.md 6
 * (`brain_search_total{strategy,index}`, latency, result count; cache hits included, since they are served
 * searches). The index label is the sorted index list joined by `+`, or `all`.
 */
export class SearchService {
  private readonly counts: Record<ServedStrategy, number> = { fulltext: 0, semantic: 0, hybrid: 0 };

  constructor(
    private readonly strategies: Record<ServedStrategy, SearchStrategy>,
    private readonly cache?: SearchCache,
  ) {}

  async search(request: SearchRequest): Promise<SearchResponse> {
    if (request.query.trim() === '') {
      throw new BlankQueryError();
    }
    const started = performance.now();
    const strategy = request.strategy ?? 'hybrid';
    const key = {
      query: request.query,
      strategy,
      indexes: request.indexes,
      limit: request.limit ?? DEFAULT_SEARCH_LIMIT,
    };
    const lookup = await this.cache?.lookup(key);
    let hits = lookup?.hits;
    const cached = hits !== undefined;
    let degraded = false;
    if (!hits) {
      hits = await this.strategies[strategy](request.query, {
        indexes: request.indexes,
        limit: key.limit,
        onPartialFailure: () => {
          degraded = true;
        },
      });
      // A degraded answer is not cached: the next search should try the failed part again.
      if (lookup && !degraded) await this.cache!.store(lookup.key, hits);
    }
    const seconds = (performance.now() - started) / 1000;
    const indexLabel = request.indexes?.length ? [...new Set(request.indexes)].sort().join('+') : 'all';
    this.counts[strategy]++;
    searchTotal.inc({ strategy, index: indexLabel });
    searchLatency.observe({ strategy }, seconds);
    searchResultCount.observe({ strategy }, hits.length);
    return { hits, strategy, cached, degraded, tookMs: seconds * 1000 };
  }

  /** Searches served since start-up, by strategy (for GET /brain/stats). */
  queryCounts(): Record<ServedStrategy, number> {
    return { ...this.counts };
  }
}
