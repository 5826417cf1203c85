import type { Hit, StrategyName } from './hit';

/** RRF constant of Cormack, Clarke and Büttcher (2009): damps the weight of top ranks; 60 is their value. */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion: each chunk scores Σ 1 / (k + rank) over the lists it appears in (rank from 1),
 * so agreement between strategies beats a high rank in one, and raw scores of different scales are never
 * compared. The fused hit keeps the first list's copy (its snippet), gets `strategy` (default `hybrid`)
 * and the union of `foundBy`. Ties keep first-seen order. Default k = 60, limit = all. `weights` scales each
 * list's contributions (weighted RRF; default 1 each).
 */
export function reciprocalRankFusion(
  lists: readonly Hit[][],
  k = RRF_K,
  limit = Number.POSITIVE_INFINITY,
  strategy: StrategyName = 'hybrid',
  weights?: readonly number[],
): Hit[] {
  const fused = new Map<string, Hit>();
  for (const [at, list] of lists.entries()) {
    const weight = weights?.[at] ?? 1;
    list.forEach((hit, i) => {
      const contribution = weight / (k + i + 1);
      const existing = fused.get(hit.chunkId);
      if (existing) {
        existing.score += contribution;
        existing.foundBy = [...new Set([...existing.foundBy, ...hit.foundBy])];
      } else {
        fused.set(hit.chunkId, {
          ...hit,
          score: contribution,
          strategy,
          foundBy: [...hit.foundBy],
        });
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
