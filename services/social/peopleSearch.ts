import { expandQueryTerms, narrowerQueryTerms } from '../../ai/text/synonyms';
import { analyze, plainWords } from '../../ai/text/terms';
import type { SocialPlatform } from '../../models/SocialIdentity';
import type { SocialInteractionRecord } from '../../models/SocialInteraction';
import type { SocialStore } from './socialStore';
import { topTopicsOf } from './topics';

/** Messages read per query term at most (the newest first). */
const MAX_ROWS_PER_TERM = 1_000;
/** Query terms used at most, and as many terms from their synonyms, and as many from narrower kinds. */
const MAX_QUERY_TERMS = 10;
/** Narrower kinds looked up per query word. */
const NARROWER_PER_WORD = 8;
/** What a term reached through a synonym counts, against 1 for the query's own terms. */
export const SYNONYM_WEIGHT = 0.5;
/** What a term reached through a narrower kind counts ("sword" for "weapons"): a kind of it, not the same thing. */
export const NARROWER_WEIGHT = 0.4;

/** One person found: their score, the query terms they talk about and their top topics. */
export interface PersonHit {
  person: string;
  score: number;
  matched: string[];
  topics: string[];
}

/**
 * People by what they talk about. The query is analysed like their messages (the brain's stemmed terms, so "farming"
 * finds people who said "farm" or "farms") and widened through WordNet 3.1 (ai/text/synonyms.ts): its words'
 * synonyms count half ("agriculture" finds "farming") and the narrower kinds of what they name count 0.4 ("weapons"
 * finds "sword" and "spear"). For each term the newest messages using it are read (index on the messages' topic
 * terms), and each person scores Σ weight × idf(term) × (1 + ln messages) over the terms they share with the query,
 * idf favouring terms few of the people found use. `platform` keeps people with an identity there.
 */
export async function searchPeople(
  store: SocialStore,
  query: string,
  platform: SocialPlatform | undefined,
  limit: number,
): Promise<PersonHit[]> {
  const exact = [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
  if (exact.length === 0) return [];
  const words = plainWords(query).slice(0, MAX_QUERY_TERMS).join(' ');
  const taken = new Set(exact);
  const synonyms = untaken(expandQueryTerms(words), taken);
  const narrower = untaken(narrowerQueryTerms(words, NARROWER_PER_WORD), taken);
  const weights = new Map<string, number>([
    ...exact.map((term): [string, number] => [term, 1]),
    ...synonyms.map((term): [string, number] => [term, SYNONYM_WEIGHT]),
    ...narrower.map((term): [string, number] => [term, NARROWER_WEIGHT]),
  ]);
  const terms = [...weights.keys()];
  const weight = (term: string) => weights.get(term) as number;
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

/**
 * Up to MAX_QUERY_TERMS of the expansions' terms not taken yet, taking them: one from each query word in turn, so
 * the first word's expansions do not crowd out the others'.
 */
function untaken(expansions: Map<string, string[]>, taken: Set<string>): string[] {
  const lists = [...expansions.values()];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const terms: string[] = [];
  for (let index = 0; index < longest; index++) {
    for (const list of lists) {
      const term = list[index];
      if (term === undefined || taken.has(term)) continue;
      if (terms.length >= MAX_QUERY_TERMS) return terms;
      taken.add(term);
      terms.push(term);
    }
  }
  return terms;
}
