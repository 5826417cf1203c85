import { plainWords } from './terms';
import { sharedWordNet, type WordNet } from './wordNet';

/**
 * A text's WordNet concepts as index terms: for each plain word (ai/text/terms `plainWords`), the ids of
 * its first `senses` synsets per part of speech (`n02086723`) and the hypernyms of its first sense
 * (prefixed `h`, so a hypernym never matches the synset itself). Two words with a shared sense
 * ("erase"/"delete") or a shared parent ("money"/"currency" → medium of exchange) then share terms, and
 * BM25's idf keeps broad concepts cheap. Words WordNet does not know (identifiers) yield nothing.
 */
export function conceptsOf(text: string, senses = 2, wordNet: WordNet = sharedWordNet()): string[] {
  const concepts: string[] = [];
  for (const word of plainWords(text)) concepts.push(...conceptsOfWord(word, senses, wordNet));
  return concepts;
}

const memo = new Map<string, string[]>();

/** The concept terms of one lower-case word (memoised). */
export function conceptsOfWord(word: string, senses = 2, wordNet: WordNet = sharedWordNet()): string[] {
  const key = `${senses}:${word}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const ids = wordNet.synsetIdsOf(word, senses);
  const first = ids[0] ? wordNet.synset(ids[0]) : undefined;
  const concepts = [...ids, ...(first?.hypernyms ?? []).map((h) => `h${h}`)];
  if (memo.size > 200_000) memo.clear();
  memo.set(key, concepts);
  return concepts;
}
