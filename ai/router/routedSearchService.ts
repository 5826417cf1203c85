import { performance } from 'node:perf_hooks';
import type { IndexName } from '../../models/corpusRecords';
import { BlankQueryError } from '../retrieval/blankQueryError';
import { searchLatency, searchResultCount, searchTotal } from '../../platform/metrics';
import { routedSearchDegraded, routedSearchTotal } from '../../platform/retrievalMetrics';
import type { SearchCache } from '../cache/searchCache';
import { DEFAULT_SEARCH_LIMIT, type Hit } from '../retrieval/hit';
import type { AdaptiveRouter, Route, V2Strategy } from './adaptiveRouter';
import type { QueryClass } from './queryClassifier';

/** A v2 search as the route passes it on. Defaults: auto, all indexes, 10 hits, rerank on. */
export interface RoutedSearchRequest {
  query: string;
  strategy?: V2Strategy;
  indexes?: IndexName[];
  limit?: number;
  rerank?: boolean;
  /** Only chunks whose source starts with this; the router is asked 5 × deeper (at most 250) to fill the limit. */
  sourcePrefix?: string;
}

/** The hits plus the route taken and how they were produced. */
export interface RoutedSearchResponse {
  /** Shared with the cache: read-only. */
  hits: readonly Hit[];
  route: Route;
  cached: boolean;
  degraded: boolean;
  tookMs: number;
}

/**
 * POST /brain/search/v2's command: the adaptive router behind the same two-level cache as v1 (the key adds
 * `v2:<strategy>:<rerank>`, so v1 and v2 entries never mix; an ingest invalidates both), and the search
 * metrics: `brain_search_total{strategy,index}` with the strategy `v2:<strategy>`, latency and result
 * counts, plus `brain_routed_search_total{class,strategy}` per strategy run and
 * `brain_routed_search_degraded_total{class}`. A cached answer's route is recomputed (classification is
 * pure); a degraded answer is not cached.
 */
export class RoutedSearchService {
  private readonly counts: Record<QueryClass | 'named', number> = {
    SIMPLE: 0,
    FACTUAL: 0,
    EXPLORATORY: 0,
    COMPLEX: 0,
    named: 0,
  };

  constructor(
    private readonly router: AdaptiveRouter,
    private readonly cache?: SearchCache,
  ) {}

  /** The route `strategy` (default auto) would take for `query`, without searching. */
  plan(query: string, strategy?: V2Strategy, rerank?: boolean): Route {
    return this.router.plan(query, strategy, rerank);
  }

  async search(request: RoutedSearchRequest): Promise<RoutedSearchResponse> {
    if (request.query.trim() === '') {
      throw new BlankQueryError();
    }
    const started = performance.now();
    const strategy = request.strategy ?? 'auto';
    const rerank = request.rerank ?? true;
    const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
    const prefix = request.sourcePrefix;
    const variant = `v2:${strategy}:${rerank ? 'rerank' : 'plain'}${prefix ? `:${prefix}` : ''}`;
    const key = { query: request.query, strategy: variant, indexes: request.indexes, limit };
    const lookup = await this.cache?.lookup(key);
    let hits = lookup?.hits;
    let route: Route;
    let degraded = false;
    if (hits) {
      route = this.router.plan(request.query, strategy, rerank);
    } else {
      const depth = prefix ? Math.min(limit * 5, 250) : limit;
      const routed = await this.router.search(request.query, {
        strategy,
        indexes: request.indexes,
        limit: depth,
        rerank,
      });
      ({ route, degraded } = routed);
      hits = prefix
        ? routed.hits.filter((hit) => hit.source.startsWith(prefix)).slice(0, limit)
        : routed.hits;
      if (lookup && !degraded) await this.cache!.store(lookup.key, hits);
    }
    const seconds = (performance.now() - started) / 1000;
    const label = `v2:${strategy}`;
    const classLabel = route.class ?? 'named';
    this.counts[classLabel]++;
    const indexLabel = request.indexes?.length ? [...new Set(request.indexes)].sort().join('+') : 'all';
    searchTotal.inc({ strategy: label, index: indexLabel });
    searchLatency.observe({ strategy: label }, seconds);
    searchResultCount.observe({ strategy: label }, hits.length);
    for (const name of route.strategies) routedSearchTotal.inc({ class: classLabel, strategy: name });
    if (degraded) routedSearchDegraded.inc({ class: classLabel });
    return { hits, route, cached: lookup?.hits !== undefined, degraded, tookMs: seconds * 1000 };
  }

  /** Routed searches served since start-up, by router class (`named`: the request chose the strategy). */
  classCounts(): Record<QueryClass | 'named', number> {
    return { ...this.counts };
  }
}
