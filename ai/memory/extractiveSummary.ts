import { analyze } from '../text/terms';
import { sentencesOf } from './factPatterns';

/**
 * An extractive summary (the offline default for archival): sentences scored by the summed frequency of their terms
 * across all the texts (divided by √length so long sentences do not win by size), the best kept in their original
 * order until `maxChars` (default 1200). Exact repeats are kept once.
 */
export function extractiveSummary(texts: readonly string[], maxChars = 1200): string {
  const sentences = [...new Set(texts.flatMap((text) => sentencesOf(text)))];
  const frequency = new Map<string, number>();
  const termsOf = sentences.map((sentence) => analyze(sentence));
  for (const terms of termsOf)
    for (const term of new Set(terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const ranked = sentences
    .map((sentence, index) => {
      const terms = termsOf[index];
      const weight = terms.reduce((sum, term) => sum + (frequency.get(term) ?? 0), 0);
      return { index, sentence, score: terms.length === 0 ? 0 : weight / Math.sqrt(terms.length) };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: typeof ranked = [];
  let length = 0;
  for (const candidate of ranked) {
    if (length + candidate.sentence.length + 1 > maxChars && chosen.length > 0) continue;
    chosen.push(candidate);
    length += candidate.sentence.length + 1;
  }
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((c) => c.sentence)
    .join(' ')
    .slice(0, maxChars);
}
