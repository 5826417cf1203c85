import { plainWords, termsOfWord } from './terms';
import { sharedWordNet, type WordNet } from './wordNet';

/**
 * WordNet synonyms of a query's words as index terms: each query term (stemmed, as ai/text/terms makes
 * it) → the stemmed single-word lemmas of its word's first `maxSenses` senses per part of speech, itself
 * excluded. Used by the reranker (a synonym covers a query term at half weight), offline HYDE and the
 * extractive answerer.
 */
export function expandQueryTerms(
  query: string,
  maxSenses = 2,
  wordNet: WordNet = sharedWordNet(),
): Map<string, string[]> {
  const expansions = new Map<string, string[]>();
  for (const word of plainWords(query)) {
    const [term] = termsOfWord(word);
    if (!term || expansions.has(term)) continue;
    const synonyms = new Set<string>();
    for (const synonym of wordNet.synonymsOf(word, maxSenses)) {
      for (const synonymTerm of termsOfWord(synonym)) if (synonymTerm !== term) synonyms.add(synonymTerm);
    }
    expansions.set(term, [...synonyms]);
  }
  return expansions;
}
