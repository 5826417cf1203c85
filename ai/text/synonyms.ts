import { plainWords, termsOfWord } from './terms';
import { sharedWordNet, type WordNet } from './wordNet';

/**
 * WordNet synonyms of a query's words as index terms: each query term (stemmed, as ai/text/terms makes
 * it) → the stemmed single-word lemmas of its word's first `maxSenses` senses per part of speech, itself
 * excluded. Used by the reranker (a synonym covers a query term at half weight), offline HYDE, the
 * extractive answerer and the social people search.
 */
export function expandQueryTerms(
  query: string,
  maxSenses = 2,
  wordNet: WordNet = sharedWordNet(),
): Map<string, string[]> {
  return relatedTerms(query, (word) => wordNet.synonymsOf(word, maxSenses));
}

/**
 * Narrower kinds of a query's words as index terms: each query term → the stemmed names of its word's hyponyms
 * and theirs (`WordNet.narrowerOf`: "weapons" → gun, knife, spear, sword, ...), at most `perWord`. Finds text
 * about instances of what the query names in general, which neither the words nor their synonyms reach.
 */
export function narrowerQueryTerms(
  query: string,
  perWord = 12,
  wordNet: WordNet = sharedWordNet(),
): Map<string, string[]> {
  return relatedTerms(query, (word) => wordNet.narrowerOf(word, perWord));
}

/** Each query term (stop words skipped) → the distinct index terms of the words `related` gives for its word. */
function relatedTerms(query: string, related: (word: string) => string[]): Map<string, string[]> {
  const expansions = new Map<string, string[]>();
  for (const word of plainWords(query)) {
    const [term] = termsOfWord(word);
    if (!term || expansions.has(term)) continue;
    const terms = new Set<string>();
    for (const relatedWord of related(word)) {
      for (const relatedTerm of termsOfWord(relatedWord)) if (relatedTerm !== term) terms.add(relatedTerm);
    }
    expansions.set(term, [...terms]);
  }
  return expansions;
}
