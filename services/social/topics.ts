import { analyze } from '../../ai/text/terms';
import type { SocialStore } from './socialStore';

/** Distinct terms one message adds to its author's topics at most (the most frequent first). */
export const TERMS_PER_MESSAGE = 8;
/** Terms shorter than this, or made of digits only, are not topics. */
const MIN_TERM_LENGTH = 3;

/**
 * The topic terms of a message: the brain's stemmed index terms (stop words dropped), without numbers and very
 * short terms, most frequent first, at most TERMS_PER_MESSAGE.
 */
export function topicTerms(content: string): string[] {
  const counts = new Map<string, number>();
  for (const term of analyze(content)) {
    if (term.length < MIN_TERM_LENGTH || /^\d+$/.test(term) || term.includes('.') || term.includes('$'))
      continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TERMS_PER_MESSAGE)
    .map(([term]) => term);
}

/** Topic weights to add, per person and term. */
export class TopicIncrements {
  private readonly byPerson = new Map<string, Map<string, number>>();

  /** Adds one message of `person`. */
  add(person: string, content: string | null | undefined): void {
    if (!content) return;
    const terms = topicTerms(content);
    if (terms.length === 0) return;
    let weights = this.byPerson.get(person);
    if (!weights) this.byPerson.set(person, (weights = new Map()));
    for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + 1);
  }

  /** Writes the increments in one bulk write (upserts), stamped `at`. */
  async write(store: SocialStore, at: Date): Promise<void> {
    const ops = [];
    for (const [person, weights] of this.byPerson) {
      for (const [term, weight] of weights) {
        ops.push({
          updateOne: {
            filter: { _id: `${person}|${term}` },
            update: { $setOnInsert: { person, term }, $inc: { weight }, $max: { lastAt: at } },
            upsert: true,
          },
        });
      }
    }
    if (ops.length > 0) await store.topics.collection.bulkWrite(ops as never, { ordered: false });
  }
}

/** A person's top topics, heaviest first. */
export async function topTopicsOf(store: SocialStore, person: string, limit = 10) {
  const topics = await store.topics
    .find({ person }, { term: 1, weight: 1 })
    .sort({ weight: -1 })
    .limit(limit)
    .lean();
  return topics.map((topic) => ({ term: topic.term, weight: topic.weight }));
}
