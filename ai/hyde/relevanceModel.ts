import type { Hit } from '../retrieval/hit';
import { analyze } from '../text/terms';

/** RM3 settings. Defaults: 20 expansion terms, original query weight λ = 0.6. */
export interface RelevanceModelOptions {
  expansionTerms: number;
  originalWeight: number;
}

/**
 * RM3 pseudo-relevance feedback (Lavrenko and Croft 2001; Abdul-Jaleel et al. 2004): the relevance model
 * P(w|R) ∝ Σ_d P(d|q) · tf(w, d) / |d| over the feedback hits (P(d|q) from their scores, normalised), its
 * top `expansionTerms` terms kept and renormalised, then interpolated with the query's own terms:
 * weight(w) = λ · P(w|q) + (1 − λ) · P(w|R). Terms are the brain's index terms (stemmed). `idf` damps
 * terms common in the whole corpus, which feedback would otherwise favour.
 */
export function relevanceModel(
  queryTerms: readonly string[],
  feedback: readonly Hit[],
  idf: (term: string) => number,
  options: Partial<RelevanceModelOptions> = {},
): Map<string, number> {
  const { expansionTerms = 20, originalWeight = 0.6 } = options;
  const weights = new Map<string, number>();
  const unique = [...new Set(queryTerms)];
  for (const term of unique) weights.set(term, originalWeight / unique.length);
  const totalScore = feedback.reduce((sum, hit) => sum + Math.max(hit.score, 0), 0);
  if (feedback.length === 0 || totalScore <= 0) return weights;
  const model = new Map<string, number>();
  for (const hit of feedback) {
    const terms = analyze(hit.text);
    const documentWeight = Math.max(hit.score, 0) / totalScore / (terms.length || 1);
    for (const term of terms) model.set(term, (model.get(term) ?? 0) + documentWeight);
  }
  const ranked = [...model.entries()]
    .map(([term, p]) => [term, p * idf(term)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, expansionTerms);
  const mass = ranked.reduce((sum, [, p]) => sum + p, 0) || 1;
  for (const [term, p] of ranked) {
    weights.set(term, (weights.get(term) ?? 0) + ((1 - originalWeight) * p) / mass);
  }
  return weights;
}
