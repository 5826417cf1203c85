/**
 * The evaluation set of bench/brainEval/questions.json and how a hit is judged against it, shared by the
 * quality benches (bench/brainEval.ts, bench/brainFulltextLibraries.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A file and a string of the chunk that states the answer. */
export interface Answer {
  source: string;
  anchor: string;
}

/** The router classes a question is labelled with. */
export type QuestionClass = 'SIMPLE' | 'FACTUAL' | 'EXPLORATORY' | 'COMPLEX';

/**
 * A question, the index it is about, its router class, its answer and, in `also`, the same fact stated in
 * other files. `paraphrase` marks questions worded away from their answer's text.
 */
export interface Question extends Answer {
  id: string;
  question: string;
  index: string;
  class: QuestionClass;
  paraphrase?: boolean;
  also?: Answer[];
}

/** Recall@1, recall@5 and MRR@10 of a ranking over some questions. */
export interface RankingScore {
  n: number;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
}

/** Scores a ranking function per question set: all questions and each class. */
export async function scoreByClass(
  rank: (q: Question) => Promise<readonly JudgedHit[]>,
  set: readonly Question[] = questions,
  onMiss?: (q: Question, rank: number | undefined) => void,
): Promise<Record<'ALL' | QuestionClass, RankingScore>> {
  const ranks = new Map<Question, number | undefined>();
  for (const q of set) {
    const at = firstRelevantRank((await rank(q)).slice(0, 10), q);
    if (at === undefined || at > 5) onMiss?.(q, at);
    ranks.set(q, at);
  }
  const score = (subset: Question[]): RankingScore => {
    const n = subset.length || 1;
    const at = subset.map((q) => ranks.get(q));
    return {
      n: subset.length,
      recallAt1: at.filter((r) => r === 1).length / n,
      recallAt5: at.filter((r) => r !== undefined && r <= 5).length / n,
      mrr: at.reduce<number>((sum, r) => sum + (r ? 1 / r : 0), 0) / n,
    };
  };
  const byClass = (c: QuestionClass) => score(set.filter((q) => q.class === c));
  return {
    ALL: score([...set]),
    SIMPLE: byClass('SIMPLE'),
    FACTUAL: byClass('FACTUAL'),
    EXPLORATORY: byClass('EXPLORATORY'),
    COMPLEX: byClass('COMPLEX'),
  };
}

/** What relevance needs of a hit. */
export interface JudgedHit {
  source: string;
  text: string;
}

/** The questions of bench/brainEval/questions.json. */
export const questions: Question[] = (
  JSON.parse(readFileSync(join(__dirname, 'questions.json'), 'utf8')) as { questions: Question[] }
).questions;

const answersOf = (q: Question): Answer[] => [q, ...(q.also ?? [])];

/** Rank (from 1) of the first hit from an answer's file holding its anchor, or undefined. */
export function firstRelevantRank(hits: readonly JudgedHit[], q: Question): number | undefined {
  const at = hits.findIndex((h) =>
    answersOf(q).some((a) => h.source === a.source && h.text.includes(a.anchor)),
  );
  return at === -1 ? undefined : at + 1;
}

/** Answers whose file is gone or no longer holds the anchor, named for the error message. */
export function staleAnswers(): string[] {
  return questions.flatMap((q) =>
    answersOf(q)
      .filter(
        (a) =>
          !existsSync(join(ROOT, a.source)) || !readFileSync(join(ROOT, a.source), 'utf8').includes(a.anchor),
      )
      .map((a) => `${q.id} (${a.source}: ${JSON.stringify(a.anchor)})`),
  );
}

/** Recall@5 and MRR@10 of a ranking function over the whole set. */
export async function scoreRanking(
  rank: (question: string) => Promise<readonly JudgedHit[]>,
  onMiss?: (q: Question, rank: number | undefined) => void,
): Promise<{ recallAt5: number; mrr: number }> {
  let found = 0;
  let reciprocal = 0;
  for (const q of questions) {
    const at = firstRelevantRank((await rank(q.question)).slice(0, 10), q);
    if (at !== undefined && at <= 5) found++;
    else onMiss?.(q, at);
    reciprocal += at ? 1 / at : 0;
  }
  return { recallAt5: found / questions.length, mrr: reciprocal / questions.length };
}
