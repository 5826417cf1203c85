/** What `newerFirst` reorders: anything with a score and the time it occurred. */
export interface TimedHit {
  score: number;
  memory: { occurred_at: Date; content: string };
}

/** Settings of `newerFirst`, chosen on the tuning half of bench/memoryRecallEval.ts. */
export interface NewerFirstOptions {
  /** Lexical similarity (0-1) at which two memories count as about the same thing [0.4]. */
  minSimilarity: number;
  /** The newer memory moves up only when its score is at least this share of the older one's [0.6]. */
  minScoreShare: number;
  /** How many of the best hits are looked at [20]. */
  depth: number;
}

export const DEFAULT_NEWER_FIRST: NewerFirstOptions = { minSimilarity: 0.4, minScoreShare: 0.6, depth: 20 };

/**
 * Knowledge updates: when a newer memory is about the same thing as an older one ranked above it (their `similarity`
 * reaches `minSimilarity`) and scores at least `minScoreShare` of it, the newer one moves just above the older one, so
 * "I'm in a cottage outside York now" answers before "I moved into a new flat in Leeds". Works on the best `depth`
 * hits, best first, in place; answers the same array.
 */
export function newerFirst<T extends TimedHit>(
  hits: T[],
  similarity: (a: string, b: string) => number,
  options: NewerFirstOptions = DEFAULT_NEWER_FIRST,
): T[] {
  const top = hits.slice(0, options.depth);
  for (let j = 1; j < top.length; j++) {
    const newer = top[j];
    for (let i = 0; i < j; i++) {
      const older = top[i];
      if (newer.memory.occurred_at <= older.memory.occurred_at) continue;
      if (newer.score < options.minScoreShare * older.score) continue;
      if (similarity(older.memory.content, newer.memory.content) < options.minSimilarity) continue;
      top.splice(j, 1);
      top.splice(i, 0, newer);
      break;
    }
  }
  hits.splice(0, top.length, ...top);
  return hits;
}
