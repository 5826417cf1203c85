import { analyze } from '../text/terms';

/**
 * How recall ranks a memory. `relevance` (0-1) mixes meaning and words: 0.35 × the cosine similarity of the query
 * and memory embeddings plus 0.65 × the IDF-weighted share of the query's terms the memory holds (a name found in
 * every memory weighs little). The final score multiplies it by a freshness-and-weight factor: 0.6 + 0.25 × recency
 * + 0.15 × importance, recency halving every `halfLifeDays` (default 30) of age. Relevance below `minRelevance`
 * (default 0.25, chosen on bench/memoryEval.ts) is not a hit, which is how recall abstains when nothing relevant
 * is remembered.
 */
export interface RecallScoring {
  halfLifeDays: number;
  minRelevance: number;
}

export const DEFAULT_RECALL_SCORING: RecallScoring = { halfLifeDays: 30, minRelevance: 0.25 };

/**
 * Share (0-1) of the query's distinct terms that occur in `text`, each term weighted by `weight` (default 1; recall
 * passes the subject's IDF, so "Ann" present in every memory counts little and an unknown word counts most).
 */
export function termCoverage(
  queryTerms: ReadonlySet<string>,
  text: string,
  weight: (term: string) => number = () => 1,
): number {
  if (queryTerms.size === 0) return 0;
  const present = new Set(analyze(text));
  let total = 0;
  let hits = 0;
  for (const term of queryTerms) {
    const w = weight(term);
    total += w;
    if (present.has(term)) hits += w;
  }
  return total === 0 ? 0 : hits / total;
}

/** Relevance of a memory: 0.35 × cosine (clamped at 0) + 0.65 × query-term coverage. */
export function relevanceOf(cosine: number, coverage: number): number {
  return 0.35 * Math.max(0, Math.min(1, cosine)) + 0.65 * coverage;
}

/**
 * Relevance on the neural path (issue 36): 0.8 × the cosine of the query's and the memory's sentence-encoder
 * vectors (clamped at 0) + 0.2 × query-term coverage. The weights were chosen on the tuning half of
 * bench/memoryRecallEval.ts (coverage 0.2-0.35 tied on recall@5; 0.2 had the better MRR).
 */
export function meaningRelevance(cosine: number, coverage: number): number {
  return 0.8 * Math.max(0, Math.min(1, cosine)) + 0.2 * coverage;
}

/**
 * Minimum `meaningRelevance` of a hit. Sentence-encoder cosines of unrelated sentences are not near 0 (0.2-0.45 for
 * this model), so this floor only drops what shares neither meaning nor words. Chosen on the tuning half: the
 * highest floor (0.2-0.25 tried) at which no question whose answer is remembered goes unanswered (at 0.25 one did).
 */
export const MIN_MEANING_RELEVANCE = 0.24;

/** The final recall score of a relevant memory. */
export function recallScore(
  relevance: number,
  ageSeconds: number,
  importance: number,
  scoring: RecallScoring = DEFAULT_RECALL_SCORING,
): number {
  const recency = Math.pow(0.5, Math.max(0, ageSeconds) / (scoring.halfLifeDays * 86_400));
  return relevance * (0.6 + 0.25 * recency + 0.15 * importance);
}

/** Cosine similarity of two vectors of one space (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
