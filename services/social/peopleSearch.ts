import { analyze } from '../../ai/text/terms';
import type { SocialPlatform } from '../../models/SocialIdentity';
import type { SocialTopicRecord } from '../../models/SocialTopic';
import type { SocialStore } from './socialStore';

/** Topic rows read per search at most (the heaviest per term first). */
const MAX_ROWS = 5_000;

/** One person found: their score, the query terms they talk about and their top topics. */
export interface PersonHit {
  person: string;
  score: number;
  matched: string[];
  topics: string[];
}

/**
 * People by what they talk about: the query is analysed like their messages (the brain's stemmed terms, so "mining"
 * finds people who said "mine" or "mined"), and each person scores Σ idf(term) × (1 + ln weight) over the terms they
 * share with it, where idf favours rare terms among the rows read. `platform` keeps people with an identity there.
 */
export async function searchPeople(
  store: SocialStore,
  query: string,
  platform: SocialPlatform | undefined,
  limit: number,
): Promise<PersonHit[]> {
  const terms = [...new Set(analyze(query))];
  if (terms.length === 0) return [];
  const rows = await store.topics
    .find({ term: { $in: terms } }, { person: 1, term: 1, weight: 1 })
    .sort({ weight: -1 })
    .limit(MAX_ROWS)
    .lean<SocialTopicRecord[]>();
  const people = new Set(rows.map((row) => row.person));
  const documentFrequency = new Map<string, number>();
  for (const row of rows) documentFrequency.set(row.term, (documentFrequency.get(row.term) ?? 0) + 1);
  const scored = new Map<string, { score: number; matched: string[] }>();
  for (const row of rows) {
    const idf = Math.log(1 + people.size / (documentFrequency.get(row.term) as number));
    const entry = scored.get(row.person) ?? { score: 0, matched: [] };
    entry.score += idf * (1 + Math.log(row.weight));
    entry.matched.push(row.term);
    scored.set(row.person, entry);
  }
  let ranked = [...scored.entries()].sort((a, b) => b[1].score - a[1].score || a[0].localeCompare(b[0]));
  if (platform) {
    const candidates = ranked.slice(0, limit * 10).map(([person]) => person);
    const withPlatform = new Set(
      (await store.identities.find({ person: { $in: candidates }, platform }, { person: 1 }).lean()).map(
        (identity) => identity.person,
      ),
    );
    ranked = ranked.filter(([person]) => withPlatform.has(person));
  }
  const top = ranked.slice(0, limit);
  const topics = await Promise.all(
    top.map(([person]) => store.topics.find({ person }, { term: 1 }).sort({ weight: -1 }).limit(5).lean()),
  );
  return top.map(([person, entry], index) => ({
    person,
    score: Math.round(entry.score * 1000) / 1000,
    matched: entry.matched.sort(),
    topics: topics[index].map((topic) => topic.term),
  }));
}
