import { analyze } from '../../ai/text/terms';
import type { SocialStore } from './socialStore';

/** Distinct terms one message contributes at most (the most frequent first). */
export const TERMS_PER_MESSAGE = 8;
/** A person's topics are counted over their most recent messages, at most this many. */
export const TOPIC_WINDOW = 500;
/** Terms shorter than this, or made of digits only, are not topics. */
const MIN_TERM_LENGTH = 3;

/**
 * The topic terms of a message: the brain's stemmed index terms (stop words dropped), without numbers and very
 * short terms, most frequent first, at most TERMS_PER_MESSAGE. Stored with the interaction (`terms`), they are the
 * index people are found by and what their profile says they talk about.
 */
export function topicTerms(content: string | null | undefined): string[] {
  if (!content) return [];
  const counts = new Map<string, number>();
  for (const term of analyze(content)) {
    if (term.length < MIN_TERM_LENGTH || /^\d+$/.test(term)) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TERMS_PER_MESSAGE)
    .map(([term]) => term);
}

/** A person's top topics over their last TOPIC_WINDOW messages: each term with the number of messages using it. */
export async function topTopicsOf(store: SocialStore, person: string, limit = 10) {
  const recent = await store.interactions
    .find({ actorPerson: person }, { terms: 1 })
    .sort({ recordedAt: -1 })
    .limit(TOPIC_WINDOW)
    .lean();
  return topicsOf(recent, limit);
}

/** The top terms of some interactions, each with the number of them using it, most used first. */
export function topicsOf(interactions: { terms?: string[] }[], limit = 10) {
  const counts = new Map<string, number>();
  for (const interaction of interactions) {
    for (const term of interaction.terms ?? []) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([term, weight]) => ({ term, weight }));
}
