/**
 * The router variants bench/brainEval/routerLab.ts compares on the tuning half: each builds a router over the
 * platform's strategies and reranker. `current` is the router as configured; the named strategies are there to
 * show what `auto` has to match.
 */
import {
  AdaptiveRouter,
  CLASS_PLANS,
  type AdaptiveRouterOptions,
  type RoutedSearchOptions,
  type RoutedHits,
} from '../../ai/router/adaptiveRouter';
import type { Reranker } from '../../ai/rerank/offlineReranker';
import type { SearchStrategy, StrategyName } from '../../ai/retrieval/hit';
import type { RouteAnchor } from '../../ai/router/routeFusion';

/** What a variant is built from: the platform's strategies (memoised), reranker and router options. */
export interface LabSuite {
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  reranker: Reranker;
  options: Partial<AdaptiveRouterOptions>;
}

type Routed = { search(query: string, options: RoutedSearchOptions): Promise<RoutedHits> };
type Variant = (suite: LabSuite) => Routed;

const router = (suite: LabSuite, options: Partial<AdaptiveRouterOptions> = {}) =>
  new AdaptiveRouter(suite.strategies, suite.reranker, { ...suite.options, ...options });

const named =
  (strategy: 'hybrid' | 'hyde' | 'fulltext' | 'semantic'): Variant =>
  (suite) => {
    const r = router(suite);
    return { search: (query, options) => r.search(query, { ...options, strategy }) };
  };

const anchored =
  (anchor: Partial<RouteAnchor>, options: Partial<AdaptiveRouterOptions> = {}): Variant =>
  (suite) =>
    router(suite, {
      anchor: { strategy: 'hybrid', weight: 1, agreeK: 10, minShared: 0, ...anchor },
      ...options,
    });

export const ROUTER_VARIANTS: Record<string, Variant> = {
  current: (suite) => router(suite),
  hybrid: named('hybrid'),
  hyde: named('hyde'),
  fulltext: named('fulltext'),
  'anchor w1': anchored({ weight: 1 }),
  'anchor w2': anchored({ weight: 2 }),
  'anchor w1 fallback<2': anchored({ weight: 1, minShared: 2 }),
  'anchor w1 fallback<3': anchored({ weight: 1, minShared: 3 }),
  'anchor w2 fallback<2': anchored({ weight: 2, minShared: 2 }),
  'anchor w1 factual+semantic': anchored(
    { weight: 1 },
    { plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'semantic'] } } },
  ),
};
