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
import { DEFAULT_ANCHOR } from '../../ai/router/retrievalSuite';
import { reciprocalRankFusion } from '../../ai/retrieval/fusion';

/** What a variant is built from: the platform's strategies (memoised), reranker and router options. */
export interface LabSuite {
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  reranker: Reranker;
  options: Partial<AdaptiveRouterOptions>;
  /** Weights the index's calibration measured (ai/router/routerCalibration). */
  calibration?: Partial<Record<StrategyName, number>>;
  /** The anchor candidate (hybrid, hyde, fulltext, semantic) strongest on the index's pseudo-queries. */
  strongest?: StrategyName;
}

type Routed = { search(query: string, options: RoutedSearchOptions): Promise<RoutedHits> };
type Variant = (suite: LabSuite) => Routed;

const router = (suite: LabSuite, options: Partial<AdaptiveRouterOptions> = {}) =>
  new AdaptiveRouter(suite.strategies, suite.reranker, { ...suite.options, ...options });

const named =
  (strategy: 'hybrid' | 'hyde' | 'fulltext' | 'semantic' | 'graph'): Variant =>
  (suite) => {
    const r = router(suite);
    return { search: (query, options) => r.search(query, { ...options, strategy }) };
  };

const anchored =
  (anchor: Partial<RouteAnchor>, options: Partial<AdaptiveRouterOptions> = {}, calibrated = false): Variant =>
  (suite) =>
    router(suite, {
      anchor: { ...DEFAULT_ANCHOR, ...anchor },
      ...(calibrated ? { calibration: () => suite.calibration } : {}),
      ...options,
    });

/**
 * Late fusion: each part answers its whole route (fused, reranked) `depth` deep, and the final rankings are fused by
 * weighted RRF with constant `k`.
 */
const late =
  (parts: Variant[], weights: number[], k = 60, depth = 20): Variant =>
  (suite) => {
    const routers = parts.map((part) => part(suite));
    return {
      search: async (query, options) => {
        const results = await Promise.all(routers.map((r) => r.search(query, { ...options, limit: depth })));
        const hits = reciprocalRankFusion(
          results.map((r) => r.hits),
          k,
          options.limit ?? 10,
          'hybrid',
          weights,
        );
        return { route: results[0].route, hits, degraded: false };
      },
    };
  };

/**
 * Per-query selection by the reranker's confidence: every part answers, and the answer whose first `top` hits have
 * the highest mean reranker score is returned.
 */
const chosenBy =
  (parts: Variant[], top: number): Variant =>
  (suite) => {
    const routers = parts.map((part) => part(suite));
    const confidence = (r: RoutedHits) =>
      r.hits.slice(0, top).reduce((sum, h) => sum + h.score, 0) / Math.max(1, Math.min(top, r.hits.length));
    return {
      search: async (query, options) => {
        const results = await Promise.all(routers.map((r) => r.search(query, options)));
        return results.reduce((a, b) => (confidence(b) > confidence(a) ? b : a));
      },
    };
  };

/** Variants that read the index's calibration: the lab scores them once per pseudo-query kind. */
export const CALIBRATED_VARIANTS = new Set([
  'anchor w1 calibrated',
  'anchor w1 fb<2 calibrated',
  'anchor w2 calibrated',
  'anchor strongest w2',
  'anchor strongest w2 calibrated',
  'calibrated only',
]);

export const ROUTER_VARIANTS: Record<string, Variant> = {
  'no anchor (before)': (suite) => router(suite, { anchor: undefined, calibration: undefined }),
  current: (suite) => router(suite),
  hybrid: named('hybrid'),
  hyde: named('hyde'),
  fulltext: named('fulltext'),
  semantic: named('semantic'),
  graph: named('graph'),
  'anchor w1': anchored({ weight: 1 }),
  'anchor w0.5': anchored({ weight: 0.5 }),
  'anchor w2': anchored({ weight: 2 }),
  'anchor w1 calibrated': anchored({ weight: 1 }, {}, true),
  'anchor w1 fb<2 calibrated': anchored({ weight: 1, minShared: 2 }, {}, true),
  'anchor w2 calibrated': anchored({ weight: 2 }, {}, true),
  'anchor strongest w2': (suite) => anchored({ strategy: suite.strongest ?? 'hybrid' })(suite),
  'anchor strongest w2 calibrated': (suite) =>
    anchored({ strategy: suite.strongest ?? 'hybrid' }, {}, true)(suite),
  'calibrated only': (suite) => router(suite, { anchor: undefined, calibration: () => suite.calibration }),
  'anchor w3': anchored({ weight: 3 }),
  'anchor w4': anchored({ weight: 4 }),
  'anchor every class': (suite) =>
    router(suite, {
      anchor: { ...DEFAULT_ANCHOR, classes: ['SIMPLE', 'FACTUAL', 'EXPLORATORY', 'COMPLEX'] },
    }),
  'no section citations': (suite) => router(suite, { followCitations: undefined }),
  'late current+hybrid k60': (suite) => late([(s) => router(s), named('hybrid')], [1, 1])(suite),
  'late current+hybrid k10': (suite) => late([(s) => router(s), named('hybrid')], [1, 1], 10)(suite),
  'late current+hybrid k2': (suite) => late([(s) => router(s), named('hybrid')], [1, 1], 2)(suite),
  'late hyde+hybrid k60': late([named('hyde'), named('hybrid')], [1, 1]),
  'late hyde+hybrid k10': late([named('hyde'), named('hybrid')], [1, 1], 10),
  'late current+hyde+hybrid k60': (suite) =>
    late([(s) => router(s), named('hyde'), named('hybrid')], [1, 1, 1])(suite),
  'late current+hyde+hybrid k10': (suite) =>
    late([(s) => router(s), named('hyde'), named('hybrid')], [1, 1, 1], 10)(suite),
  'late noanchor+hybrid k60': (suite) =>
    late([(s) => router(s, { anchor: undefined }), named('hybrid')], [1, 1])(suite),
  'late noanchor+hybrid k10': (suite) =>
    late([(s) => router(s, { anchor: undefined }), named('hybrid')], [1, 1], 10)(suite),
  'best prior': (suite) => router(suite, { prior: 'best' }),
  'weighted prior': (suite) => router(suite, { prior: 'weighted' }),
  'mean prior': (suite) => router(suite, { prior: 'mean' }),
  'weighted prior +fulltext': (suite) =>
    router(suite, {
      prior: 'weighted',
      plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'fulltext'] } },
    }),
  '+fulltext': (suite) =>
    router(suite, {
      plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'fulltext'] } },
    }),
  'mean prior +fulltext': (suite) =>
    router(suite, {
      prior: 'mean',
      plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'fulltext'] } },
    }),
  'best prior anchor w1': anchored({ weight: 1 }, { prior: 'best' }),
  'best prior +fulltext': (suite) =>
    router(suite, {
      prior: 'best',
      plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'fulltext'] } },
    }),
  'best prior +fulltext+semantic': (suite) =>
    router(suite, {
      prior: 'best',
      plans: {
        ...CLASS_PLANS,
        FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hyde', 'fulltext', 'semantic'] },
      },
    }),
  'qpp current|noanchor|hybrid top1': chosenBy(
    [(s) => router(s), (s) => router(s, { anchor: undefined }), named('hybrid')],
    1,
  ),
  'qpp current|noanchor|hybrid top3': chosenBy(
    [(s) => router(s), (s) => router(s, { anchor: undefined }), named('hybrid')],
    3,
  ),
  'qpp current|noanchor top1': chosenBy([(s) => router(s), (s) => router(s, { anchor: undefined })], 1),
  'qpp current|noanchor top3': chosenBy([(s) => router(s), (s) => router(s, { anchor: undefined })], 3),
  'qpp noanchor|anchoronly top3': chosenBy(
    [
      (s) => router(s, { anchor: undefined }),
      (s) =>
        router(s, { plans: { ...CLASS_PLANS, FACTUAL: { ...CLASS_PLANS.FACTUAL, strategies: ['hybrid'] } } }),
    ],
    3,
  ),
  'late all5 k60': late(
    [named('hyde'), named('hybrid'), named('fulltext'), named('semantic'), named('graph')],
    [1, 1, 1, 1, 1],
  ),
};
