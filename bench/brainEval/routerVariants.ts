/**
 * The router variants bench/brainEval/routerLab.ts compares on the tuning half: each builds a router over the
 * platform's strategies and reranker. `current` is the router as configured; the named strategies are there to
 * show what `auto` has to match.
 */
import {
  AdaptiveRouter,
  type AdaptiveRouterOptions,
  type RoutedSearchOptions,
  type RoutedHits,
} from '../../ai/router/adaptiveRouter';
import type { Reranker } from '../../ai/rerank/offlineReranker';
import type { SearchStrategy, StrategyName } from '../../ai/retrieval/hit';
import type { RouteAnchor } from '../../ai/router/routeFusion';
import { DEFAULT_ANCHOR } from '../../ai/router/retrievalSuite';

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
};
