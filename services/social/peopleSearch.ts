import { analyze } from '../../ai/text/terms';
import type { SocialPlatform } from '../../models/SocialIdentity';
import type { SocialInteractionRecord } from '../../models/SocialInteraction';
import type { SocialStore } from './socialStore';
import { topTopicsOf } from './topics';
import { WordnetSynonyms } from './wordnetSynonyms';

/** Messages read per query term at most (the newest first). */
const MAX_ROWS_PER_TERM = 1_000;
/** Query terms used at most (and as many terms from their synonyms). */
const MAX_QUERY_TERMS = 10;
/** What a term reached through a synonym counts, against 1 for the query's own terms. */
export const SYNONYM_WEIGHT = 0.5;
/** WordNet synonyms, loaded on the first search of the process. */
const SYNONYMS = new WordnetSynonyms();

/** One person found: their score, the query terms they talk about and their top topics. */
export interface PersonHit {
  person: string;
  score: number;
  matched: string[];
  topics: string[];
}

/**
 * People by what they talk about. The query is analysed like their messages (the brain's stemmed terms, so "farming"
 * finds people who said "farm" or "farms") and widened with its words' WordNet synonyms, which count half
 * ("agriculture" finds "farming"); for each term the newest messages using it are read (index on
 * the messages' topic terms), and each person scores Σ weight × idf(term) × (1 + ln messages) over the terms they share with
 * the query, idf favouring terms few of the people found use. `platform` keeps people with an identity there.
 */
export async function searchPeople(
  store: SocialStore,
  query: string,
  platform: SocialPlatform | undefined,
  limit: number,
): Promise<PersonHit[]> {
  const exact = [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
  if (exact.length === 0) return [];
  const words = [...query.toLowerCase().matchAll(/\p{L}+/gu)]
    .map((match) => match[0])
    .slice(0, MAX_QUERY_TERMS);
  const synonyms = (await Promise.all(words.map((word) => SYNONYMS.of(word)))).flat();
  const widened = [...new Set(analyze(synonyms.join(' ')))].filter((term) => !exact.includes(term));
  const terms = [...exact, ...widened.slice(0, MAX_QUERY_TERMS)];
  const weight = (term: string) => (exact.includes(term) ? 1 : SYNONYM_WEIGHT);
  const rowsPerTerm = await Promise.all(
    terms.map((term) =>
      store.interactions
        .find({ terms: term }, { actorPerson: 1 })
        .sort({ recordedAt: -1 })
        .limit(MAX_ROWS_PER_TERM)
        .lean<Pick<SocialInteractionRecord, 'actorPerson'>[]>(),
    ),
  );
  const counts = new Map<string, Map<string, number>>();
  for (const [index, rows] of rowsPerTerm.entries()) {
    for (const row of rows) {
      let byTerm = counts.get(row.actorPerson);
      if (!byTerm) counts.set(row.actorPerson, (byTerm = new Map()));
      byTerm.set(terms[index], (byTerm.get(terms[index]) ?? 0) + 1);
    }
  }
  const peopleWith = new Map(terms.map((term) => [term, 0]));
  for (const byTerm of counts.values())
    for (const term of byTerm.keys()) peopleWith.set(term, (peopleWith.get(term) ?? 0) + 1);
  let ranked = [...counts.entries()]
    .map(([person, byTerm]) => {
      let score = 0;
      for (const [term, messages] of byTerm) {
        score +=
          weight(term) *
          Math.log(1 + counts.size / (peopleWith.get(term) as number)) *
          (1 + Math.log(messages));
      }
      return { person, score, matched: [...byTerm.keys()].sort() };
    })
    .sort((a, b) => b.score - a.score || a.person.localeCompare(b.person));
  if (platform) {
    const candidates = ranked.slice(0, limit * 10).map((entry) => entry.person);
    const withPlatform = new Set(
      (await store.identities.find({ person: { $in: candidates }, platform }, { person: 1 }).lean()).map(
        (identity) => identity.person,
      ),
    );
    ranked = ranked.filter((entry) => withPlatform.has(entry.person));
  }
  const top = ranked.slice(0, limit);
  const topics = await Promise.all(top.map((entry) => topTopicsOf(store, entry.person, 5)));
  return top.map((entry, index) => ({
    person: entry.person,
    score: Math.round(entry.score * 1000) / 1000,
    matched: entry.matched,
    topics: topics[index].map((topic) => topic.term),
  }));
}
