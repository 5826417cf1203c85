import { answerTypeOf, holdsAnswerType } from '../rerank/answerType';
import type { ScoredSentence } from './extractiveGenerator';

/** Sentence choice settings. Defaults: 3 sentences, rank prior 2, answer-type bonus 0.15. */
export interface AnswerSentenceOptions {
  maxSentences: number;
  rankWeight: number;
  typeBonus: number;
}

const DEFAULTS: AnswerSentenceOptions = { maxSentences: 3, rankWeight: 2, typeBonus: 0.15 };

/**
 * The sentences an extractive answer states, best first: each sentence of `ranked` (scored against the question by
 * the extractive generator) gains a prior for its passage's rank (passage n is the router's n-th hit: 1/√n) and a
 * bonus when the question names an answer type (`rerank/answerType.ts`: "how long", "which route") and the sentence
 * holds a value of it. At most one sentence a passage, so each sentence cites the passage that states it and the
 * answer's citations span the strongest passages; sentences that share none of the question's terms are never
 * chosen.
 */
export function chooseAnswerSentences(
  question: string,
  ranked: readonly ScoredSentence[],
  options: Partial<AnswerSentenceOptions> = {},
): ScoredSentence[] {
  const { maxSentences, rankWeight, typeBonus } = { ...DEFAULTS, ...options };
  const type = answerTypeOf(question);
  const scored = ranked
    .filter((s) => s.relevance > 0)
    .map((s) => ({
      sentence: s,
      score:
        s.score +
        rankWeight / Math.sqrt(s.n) +
        (type !== undefined && holdsAnswerType(s.text, type) ? typeBonus : 0),
    }))
    .sort((a, b) => b.score - a.score);
  const chosen: ScoredSentence[] = [];
  const cited = new Set<number>();
  for (const { sentence } of scored) {
    if (cited.has(sentence.n)) continue;
    cited.add(sentence.n);
    chosen.push(sentence);
    if (chosen.length === maxSentences) break;
  }
  return chosen;
}
