import { reciprocalRankFusion } from '../retrieval/fusion';
import type { Hit, StrategyName } from '../retrieval/hit';

/**
 * The anchor of auto routes: a strategy whose list every auto route fuses with its class's own lists, at `weight`.
 * When the class's fused list and the anchor's list share fewer than `minShared` documents among their first
 * `agreeK`, the strategies disagree about what the question is about and the route falls back to the anchor's
 * list alone: a class plan tuned on one corpus never answers a question whose evidence the anchor does not see.
 */
export interface RouteAnchor {
  strategy: StrategyName;
  weight: number;
  agreeK: number;
  minShared: number;
}

/** One strategy's candidate list in a route, with its RRF weight. */
export interface RouteList {
  strategy: StrategyName;
  hits: Hit[];
  weight: number;
}

/** The fused candidates; `fellBack` when the plan disagreed with the anchor and only the anchor's list is kept. */
export interface FusedRoute {
  hits: Hit[];
  fellBack: boolean;
  /** Documents the plan's and the anchor's first `agreeK` share, when both answered. */
  shared?: number;
}

/** Distinct documents of a list's first `k` hits. */
function documentsOf(hits: readonly Hit[], k: number): Set<string> {
  return new Set(hits.slice(0, k).map((hit) => hit.documentId));
}

/**
 * Fuses a route's lists by weighted reciprocal-rank fusion (constant `k`, first `depth` kept). Without an anchor,
 * or when its list is missing (it failed) or is the only one, that is plain fusion. With one, the plan's lists are
 * fused first and compared with the anchor's (documents shared among the first `agreeK`): below `minShared`, the
 * anchor's list answers alone; otherwise all lists are fused, the anchor's at its weight.
 */
export function fuseRoute(
  lists: readonly RouteList[],
  k: number,
  depth: number,
  anchor?: RouteAnchor,
): FusedRoute {
  const fuse = (chosen: readonly RouteList[]): Hit[] =>
    chosen.length === 1
      ? chosen[0].hits.slice(0, depth)
      : reciprocalRankFusion(
          chosen.map((l) => l.hits),
          k,
          depth,
          'hybrid',
          chosen.map((l) => l.weight),
        );
  const anchored = anchor ? lists.find((l) => l.strategy === anchor.strategy) : undefined;
  const plan = lists.filter((l) => l !== anchored);
  if (!anchor || !anchored || plan.length === 0)
    return { hits: lists.length ? fuse(lists) : [], fellBack: false };
  const planHits = fuse(plan);
  const anchorDocuments = documentsOf(anchored.hits, anchor.agreeK);
  const shared = [...documentsOf(planHits, anchor.agreeK)].filter((d) => anchorDocuments.has(d)).length;
  if (shared < anchor.minShared) return { hits: anchored.hits.slice(0, depth), fellBack: true, shared };
  return {
    hits: fuse([...plan, { ...anchored, weight: anchored.weight * anchor.weight }]),
    fellBack: false,
    shared,
  };
}

/** How a fused route's candidates get their rank prior (`bestRanks`). */
export type PriorMode = 'fused' | 'best' | 'weighted' | 'mean';

/**
 * Each hit's rank for the reranker's prior, from its ranks in the route's lists (from 1; a list that lacks it counts
 * rank `depth + 1`), never worse than its position in `hits` (a cited section joins at its position):
 * - `best`: the best rank it has in any list;
 * - `weighted`: the best of its ranks each scaled by (heaviest list's weight / its list's weight), so a list at half
 *   the weight needs twice the rank;
 * - `mean`: the rank whose prior (1/√rank) is the weighted mean of its lists' priors.
 * A candidate any strategy ranked high keeps (a share of) the prior that strategy's own list gives it, instead of
 * its position in the fused list.
 */
export function bestRanks(
  hits: readonly Hit[],
  lists: readonly RouteList[],
  mode: Exclude<PriorMode, 'fused'> = 'best',
  depth = 100,
): number[] {
  const heaviest = Math.max(...lists.map((l) => l.weight));
  const positions = lists.map((list) => {
    const at = new Map<string, number>();
    list.hits.forEach((hit, i) => {
      if (!at.has(hit.chunkId)) at.set(hit.chunkId, i + 1);
    });
    return at;
  });
  const total = lists.reduce((sum, l) => sum + l.weight, 0) || 1;
  return hits.map((hit, i) => {
    const ranks = positions.map((at) => at.get(hit.chunkId) ?? depth + 1);
    let rank: number;
    if (mode === 'best') rank = Math.min(...ranks);
    else if (mode === 'weighted')
      rank = Math.min(...ranks.map((r, l) => (r * heaviest) / (lists[l].weight || 1)));
    else {
      const prior = ranks.reduce((sum, r, l) => sum + lists[l].weight / Math.sqrt(r), 0) / total;
      rank = 1 / (prior * prior);
    }
    return Math.min(i + 1, rank);
  });
}
