import { analyze } from '../../ai/text/terms';

/** A source a draft may draw sentences from: a knowledge chunk or one of the creator's posts. */
export interface DraftSource {
  id: string;
  kind: 'knowledge' | 'post';
  title: string;
  text: string;
  /** How it ranked: retrieval score for knowledge, engagement for posts. */
  weight: number;
}

/** A sentence chosen for a draft, with the source it is copied from. */
export interface ChosenSentence {
  text: string;
  source: DraftSource;
  score: number;
}

/** Markdown and code stripped from a text, so its prose can be split into sentences. */
export function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+\.|>)\s+/gm, '')
    .replace(/^\|.*\|$/gm, ' ')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1');
}

/** The sentences of a text worth quoting: prose of 30-240 characters, not code, ending in punctuation. */
export function sentencesOf(text: string): string[] {
  return prose(text)
    .split(/(?<=[.!?])\s+|\n{2,}/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter(
      (sentence) =>
        sentence.length >= 30 &&
        sentence.length <= 240 &&
        /[.!?]$/.test(sentence) &&
        !/[{};=<>]|=>/.test(sentence),
    );
}

/**
 * Extractive selection: every sentence of every source scored by the share of the topic's terms it contains (plus a
 * little for its source's rank and for coming early), the best `count` kept, skipping near-duplicates (term overlap
 * above 60%). A sentence with none of the topic's terms is never chosen.
 */
export function chooseSentences(topic: string, sources: DraftSource[], count: number): ChosenSentence[] {
  const wanted = new Set(analyze(topic));
  if (wanted.size === 0) return [];
  const maxWeight = Math.max(1e-9, ...sources.map((source) => source.weight));
  const candidates: ChosenSentence[] = [];
  for (const source of sources) {
    sentencesOf(source.text).forEach((text, position) => {
      const terms = new Set(analyze(text));
      const overlap = [...wanted].filter((term) => terms.has(term)).length / wanted.size;
      if (overlap === 0) return;
      const score = overlap + 0.2 * (source.weight / maxWeight) + 0.1 / (1 + position);
      candidates.push({ text, source, score });
    });
  }
  candidates.sort((a, b) => b.score - a.score);
  const chosen: ChosenSentence[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= count) break;
    const terms = new Set(analyze(candidate.text));
    const duplicate = chosen.some((other) => {
      const otherTerms = new Set(analyze(other.text));
      const shared = [...terms].filter((term) => otherTerms.has(term)).length;
      return shared / Math.max(1, Math.min(terms.size, otherTerms.size)) > 0.6;
    });
    if (!duplicate) chosen.push(candidate);
  }
  return chosen;
}
