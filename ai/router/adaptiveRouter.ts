import pino, { type Logger } from 'pino';
import { UnavailableError } from '../../platform/errors';
import { withoutTypeWord } from '../rerank/answerType';
import type { Reranker } from '../rerank/offlineReranker';
import {
  DEFAULT_SEARCH_LIMIT,
  type Hit,
  type SearchOptions,
  type SearchStrategy,
  type StrategyName,
} from '../retrieval/hit';
import { buildSnippet } from '../retrieval/snippet';
import { queryTerms } from '../text/terms';
import { classifyQuery, type QueryClass } from './queryClassifier';
import { bestRanks, fuseRoute, type PriorMode, type RouteAnchor, type RouteList } from './routeFusion';

/** What POST /brain/search/v2 accepts as `strategy`: a strategy by name, or `auto` for the router's choice. */
export const V2_STRATEGIES = ['auto', 'fulltext', 'semantic', 'graph', 'raptor', 'hyde', 'hybrid'] as const;
export type V2Strategy = (typeof V2_STRATEGIES)[number];

/**
 * What COMPLEX fuses: SPEC.md 1's five strategies less RAPTOR, which made `auto` worse on bench/brainEval
 * (COMPLEX recall@5 0.75 → 0.67, MRR 0.30 → 0.25; figures in ai/README.md). A named `raptor` search still runs it.
 */
const COMPLEX_STRATEGIES: StrategyName[] = ['fulltext', 'semantic', 'graph', 'hyde'];
// SIMPLE reranks 50 candidates, not the default 100: the direct lookup must stay fast (SPEC 8: p95 under
// 50 ms, 100+ q/s); 20 had lost two of bench/brainEval's 20 SIMPLE questions (R@5 0.90 → 0.80), 50 none.

/** Which strategies each class runs (SPEC.md 1), and whether its list is reranked. */
export interface ClassPlan {
  strategies: StrategyName[];
  rerank: boolean;
  /** RRF weight of each strategy's list (default 1). */
  weights?: Partial<Record<StrategyName, number>>;
  /** Candidates fetched per list for reranking (default: the router's 3 × limit, at least 100). */
  depth?: number;
}

/**
 * Which strategies each class runs and whether its list is reranked, chosen on bench/brainEval (figures in
 * ai/README.md). SIMPLE: fulltext. FACTUAL: HYDE — the semantic search of a hypothetical answer document
 * (offline: RM3 + WordNet) fused with its BM25 — 200 candidates reranked (a paraphrased question's answer
 * often sits below rank 100: R@5 on FACTUAL rose with depth, 0.58 at 60, 0.61 at 100, 0.65 at 200); plain
 * SEMANTIC over the question ranked lower.
 * EXPLORATORY: graph plus community search fused with fulltext and HYDE, reranked (HYDE lifted the 14
 * EXPLORATORY questions' R@5 from 0.50 to 0.57, the level of the best single strategy). COMPLEX: all five but RAPTOR, RRF,
 * HYDE's list at double weight (R@5 on the 12 COMPLEX questions 0.67 → 0.83, the level of HYDE alone).
 */
export const CLASS_PLANS: Record<QueryClass, ClassPlan> = {
  SIMPLE: { strategies: ['fulltext'], rerank: true, depth: 50 },
  FACTUAL: { strategies: ['hyde'], rerank: true, depth: 200 },
  EXPLORATORY: { strategies: ['fulltext', 'graph', 'hyde'], rerank: true, weights: { graph: 0.5 } },
  COMPLEX: { strategies: COMPLEX_STRATEGIES, rerank: true, weights: { hyde: 2 } },
};

/** The route a search took: the class (for `auto`; `null` when a strategy was named), strategies and why. */
export interface Route {
  class: QueryClass | null;
  strategies: StrategyName[];
  reason: string;
  reranked: boolean;
  /** RRF weights of the strategies' lists, when not all 1. */
  weights?: Partial<Record<StrategyName, number>>;
  /** The named strategy is not available and another answered (the answer is degraded). */
  unavailable?: boolean;
  /** Candidate depth of the plan, when it sets one. */
  depth?: number;
  /** The strategy an auto route fused as its anchor, when it did. */
  anchor?: StrategyName;
}

/** A routed search's outcome. `degraded`: a strategy failed and the hits come from the rest. */
export interface RoutedHits {
  route: Route;
  hits: Hit[];
  degraded: boolean;
  /**
   * Share (0-1) of the anchor's first `agreeK` documents the class's strategies found among theirs too, when an
   * auto route fused an anchor: low when the strategies disagree about what the question is about.
   */
  agreement?: number;
}

/** Router settings. Defaults: RRF k = 60, candidate depth 3 × limit (at least 30). */
export interface AdaptiveRouterOptions {
  rrfK: number;
  depthFactor: number;
  minDepth: number;
  logger: Logger;
  /** Class plans (default CLASS_PLANS). */
  plans: Record<QueryClass, ClassPlan>;
  /**
   * Adds to an auto route's candidates, before reranking, the sections they cite (ai/retrieval/sectionCitations
   * `followCitations`), only chunks of the request's indexes (all when none are named); none by default.
   */
  followCitations?: (hits: readonly Hit[], indexes?: SearchOptions['indexes']) => Hit[];
  /**
   * The strategy every auto route also fuses, at `weight` (ai/router/routeFusion): a corpus-independent list the
   * class's own strategies are fused with, and fallen back to when they disagree with it; none by default.
   */
  anchor?: AnchorOption;
  /** Per-strategy RRF weight multipliers learned from the index itself (ai/router/routerCalibration). */
  calibration?: () => Partial<Record<StrategyName, number>> | undefined;
  /**
   * The anchor's strategy chosen on the index itself (the strategy strongest on its pseudo-queries,
   * ai/router/routerCalibration); `anchor.strategy` until it answers.
   */
  anchorChoice?: () => StrategyName | undefined;
  /**
   * The rank prior of a fused auto route's reranking: `fused` (default) is a candidate's position in the fused list;
   * `best`, `weighted` and `mean` derive it from its ranks in the lists fused (ai/router/routeFusion `bestRanks`).
   * Measured at stop 48 and not kept (ai/README.md, "The rank prior of fused routes").
   */
  prior?: PriorMode;
  /**
   * An auto route searches the question without the word naming its answer type (ai/rerank/answerType
   * `withoutTypeWord`) [true]; false searches the question as asked.
   */
  typeWord?: boolean;
}

/** The anchor of auto routes and the classes it joins (SIMPLE keyword lookups stay on their fast path). */
export type AnchorOption = RouteAnchor & { classes: readonly QueryClass[] };

/** A routed search request. Defaults: auto, all indexes, 10 hits, rerank on. */
export interface RoutedSearchOptions {
  strategy?: V2Strategy;
  indexes?: SearchOptions['indexes'];
  limit?: number;
  rerank?: boolean;
}

/**
 * The adaptive router: classifies the query (SIMPLE / FACTUAL / EXPLORATORY / COMPLEX), runs the class's
 * strategies on deeper candidate lists (no snippets), fuses several lists by reciprocal-rank fusion with an
 * explicit k, reranks when the plan (and the request) says so, and builds snippets for the final hits only.
 * An auto route's candidates are joined by the sections they cite, when `followCitations` is given.
 * A strategy that is not available (not built) is left out of the route; one that fails is logged and the
 * answer is `degraded` — the rest still answers, and if a single-strategy route fails, fulltext answers.
 * A named strategy runs alone (its failure is thrown, as v1 does), reranked unless `rerank` is false.
 */
export class AdaptiveRouter {
  private readonly options: AdaptiveRouterOptions;

  constructor(
    private readonly strategies: Partial<Record<StrategyName, SearchStrategy>>,
    private readonly reranker?: Reranker,
    options: Partial<AdaptiveRouterOptions> = {},
  ) {
    this.options = {
      rrfK: 60,
      depthFactor: 3,
      minDepth: 100,
      logger: pino({ level: 'silent' }),
      plans: CLASS_PLANS,
      ...options,
    };
  }

  /** The route a query would take (pure: no search), e.g. to label a cached answer. */
  plan(query: string, strategy: V2Strategy = 'auto', rerank = true): Route {
    if (strategy !== 'auto' && this.strategies[strategy] === undefined) {
      // Not built (RAPTOR in this version): the rest answers, and the answer is marked degraded.
      return {
        class: null,
        strategies: ['fulltext'],
        reason: `strategy named by the request; ${strategy} is not available, fulltext answered`,
        reranked: rerank && this.reranker !== undefined,
        unavailable: true,
      };
    }
    if (strategy !== 'auto') {
      return {
        class: null,
        strategies: [strategy],
        reason: 'strategy named by the request',
        reranked: rerank && this.reranker !== undefined,
      };
    }
    const classification = classifyQuery(query);
    const plan = this.options.plans[classification.class];
    const available = plan.strategies.filter((name) => this.strategies[name] !== undefined);
    const missing = plan.strategies.filter((name) => this.strategies[name] === undefined);
    const strategies = available.length > 0 ? available : (['fulltext'] as StrategyName[]);
    let note = missing.length > 0 ? `; not available: ${missing.join(', ')}` : '';
    const anchor = this.anchorOf(classification.class);
    const anchored = anchor && this.strategies[anchor.strategy] !== undefined ? anchor.strategy : undefined;
    if (anchored && !strategies.includes(anchored)) {
      strategies.push(anchored);
      note += `; fused with ${anchored}`;
    }
    const calibrated = this.options.calibration?.();
    const chosen = this.options.anchorChoice?.();
    if (calibrated) note += '; weights calibrated on the index';
    if (chosen && anchor) note += `; anchor ${chosen} chosen on the index`;
    if ((this.options.calibration || this.options.anchorChoice) && !calibrated && !chosen)
      note += '; weights not yet calibrated';
    const weights =
      calibrated || plan.weights ? routeWeights(strategies, plan.weights, calibrated) : undefined;
    return {
      class: classification.class,
      strategies,
      reason: `${classification.reason}${note}`,
      reranked: plan.rerank && rerank && this.reranker !== undefined,
      ...(weights ? { weights } : {}),
      ...(plan.depth ? { depth: plan.depth } : {}),
      ...(anchored ? { anchor: anchored } : {}),
    };
  }

  /** Routes and runs a search. */
  async search(query: string, options: RoutedSearchOptions = {}): Promise<RoutedHits> {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const route = this.plan(query, options.strategy ?? 'auto', options.rerank ?? true);
    const depth = !(route.reranked || route.strategies.length > 1)
      ? limit
      : Math.max(limit, route.depth ?? Math.max(limit * this.options.depthFactor, this.options.minDepth));
    let degraded = route.unavailable === true;
    const inner: SearchOptions = {
      indexes: options.indexes,
      limit: depth,
      snippets: false,
      onPartialFailure: () => {
        degraded = true;
      },
    };
    // An auto route searches the question's topic: the word naming its answer type ("which *route* …") is left
    // to the reranker's answer-type match.
    const searched = route.class === null || this.options.typeWord === false ? query : withoutTypeWord(query);
    const settled = await Promise.allSettled(route.strategies.map((name) => this.run(name, searched, inner)));
    const lists: RouteList[] = [];
    settled.forEach((outcome, i) => {
      const strategy = route.strategies[i];
      if (outcome.status === 'fulfilled') {
        lists.push({ strategy, hits: outcome.value, weight: route.weights?.[strategy] ?? 1 });
      } else
        this.options.logger.warn(
          { err: outcome.reason, strategy: route.strategies[i] },
          'routed search: strategy failed',
        );
    });
    if (lists.length < settled.length) degraded = true;
    if (lists.length === 0) {
      if (route.class === null || route.strategies.includes('fulltext'))
        throw (settled[0] as PromiseRejectedResult).reason;
      lists.push({ strategy: 'fulltext', hits: await this.run('fulltext', searched, inner), weight: 1 });
      route.reason += `; ${route.strategies.join(', ')} failed, fulltext answered`;
    }
    const planned = route.class === null ? undefined : this.anchorOf(route.class);
    const anchor = planned && route.anchor ? { ...planned, strategy: route.anchor } : undefined;
    const fused = fuseRoute(lists, this.options.rrfK, depth, anchor);
    if (fused.fellBack) route.reason += `; its strategies disagreed with ${anchor!.strategy}, which answered`;
    let hits = fused.hits;
    if (route.class !== null && route.reranked && this.options.followCitations)
      hits = this.options.followCitations(hits, options.indexes);
    const prior = this.options.prior ?? 'fused';
    const ranks =
      prior !== 'fused' && route.class !== null && lists.length > 1
        ? bestRanks(hits, weighted(lists, anchor), prior, depth)
        : undefined;
    hits =
      route.reranked && this.reranker ? await this.reranker(query, hits, limit, ranks) : hits.slice(0, limit);
    const terms = queryTerms(query);
    return {
      route,
      degraded,
      hits: hits.map((hit) => ({ ...hit, snippet: buildSnippet(hit.text, terms) })),
      ...(fused.shared !== undefined ? { agreement: fused.shared / anchor!.agreeK } : {}),
    };
  }

  private anchorOf(queryClass: QueryClass): RouteAnchor | undefined {
    const anchor = this.options.anchor;
    if (!anchor?.classes.includes(queryClass)) return undefined;
    const chosen = this.options.anchorChoice?.();
    return chosen && this.strategies[chosen] !== undefined ? { ...anchor, strategy: chosen } : anchor;
  }

  private async run(name: StrategyName, query: string, options: SearchOptions): Promise<Hit[]> {
    const strategy = this.strategies[name];
    if (!strategy) {
      throw new UnavailableError(`The ${name} strategy is not available yet`, 'BRAIN_STRATEGY_UNAVAILABLE');
    }
    return strategy(query, options);
  }
}

/** A route's RRF weights: the plan's (default 1) times the index's calibration (default 1). */
function routeWeights(
  strategies: readonly StrategyName[],
  planned: Partial<Record<StrategyName, number>> = {},
  calibrated: Partial<Record<StrategyName, number>> = {},
): Partial<Record<StrategyName, number>> {
  return Object.fromEntries(
    strategies.map((name) => [name, (planned[name] ?? 1) * (calibrated[name] ?? 1)]),
  ) as Partial<Record<StrategyName, number>>;
}

/** The route's lists with the anchor's list at its route weight times the anchor's (as `fuseRoute` weighs them). */
function weighted(lists: readonly RouteList[], anchor?: RouteAnchor): RouteList[] {
  return lists.map((l) =>
    anchor && l.strategy === anchor.strategy ? { ...l, weight: l.weight * anchor.weight } : l,
  );
}
