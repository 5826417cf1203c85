import { maximalMarginalRelevance, type Scored } from '../../../ai/rerank/offlineReranker';
import { buildHit } from '../factories';

/** The textbook greedy MMR: every round compares every candidate with every pick. */
function referenceMmr(candidates: Scored[], limit: number, lambda: number): string[] {
  const pool = [...candidates].sort((a, b) => b.score - a.score);
  const picked: Scored[] = [];
  const jaccard = (a: Uint32Array, b: Uint32Array) => {
    const shared = [...a].filter((t) => b.includes(t)).length;
    return shared / (a.length + b.length - shared || 1);
  };
  while (picked.length < limit && pool.length > 0) {
    let bestAt = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    pool.forEach((candidate, i) => {
      const similarity = Math.max(
        0,
        ...picked.map((chosen) =>
          Math.min(
            1,
            jaccard(candidate.terms, chosen.terms) *
              (chosen.hit.documentId === candidate.hit.documentId ? 2 : 1),
          ),
        ),
      );
      const value = lambda * candidate.score - (1 - lambda) * similarity;
      if (value > bestValue) {
        bestValue = value;
        bestAt = i;
      }
    });
    picked.push(pool.splice(bestAt, 1)[0]);
  }
  return picked.map((s) => s.hit.chunkId);
}

function randomCandidates(seed: number, count: number): Scored[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    hit: buildHit({ chunkId: `c${i}`, documentId: `d${Math.floor(next() * 8)}` }),
    score: Math.round(next() * 20) / 20,
    // A candidate's distinct term ids, ascending, as the reranker keeps them.
    terms: Uint32Array.from(
      new Set(Array.from({ length: 3 + Math.floor(next() * 12) }, () => Math.floor(next() * 30))),
    ).sort(),
  }));
}

describe('maximal marginal relevance', () => {
  it('picks what the textbook version picks, in the same order (200 random candidate lists, ties included)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const candidates = randomCandidates(seed, 5 + (seed % 120));
      for (const lambda of [0.5, 0.85]) {
        const lazy = maximalMarginalRelevance(candidates, 10, lambda).map((h) => h.chunkId);
        expect(lazy).toEqual(referenceMmr(candidates, 10, lambda));
      }
    }
  });
});
