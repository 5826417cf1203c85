/**
 * `npx tsx bench/memoryRecallEval.ts [KEY=VALUE ...]`: recall by meaning, LongMemEval-shaped (issue 36, item 5). Every
 * turn of `bench/memoryEval/*Sessions.json` (two subjects, 43 dated sessions) is remembered through the memory
 * service on the embedded defaults, then each of the 122 questions of `questions.json`, asked in other words than
 * its answer, is recalled: recall@5 and MRR@10 of the answering turn, per half (tuning / held-out, by a hash of the
 * question id), the questions about a corrected fact (the newer turn must rank above the one it replaced) and the
 * questions that answered nothing at all; and 12 unrelated questions, which should answer nothing. Baseline in the same run: plain BM25 over the same memories.
 * `KEY=VALUE` arguments are configuration (e.g. `BRAIN_LOCAL_EMBEDDER=hash`); `--verbose` lists the misses.
 */
import { openBenchMemory } from './memoryStores';
import {
  EVAL_QUESTIONS,
  EVAL_SUBJECTS,
  halfOf,
  subjectOf,
  turnText,
  turnTime,
  type EvalQuestion,
  UNANSWERABLE_QUESTIONS,
} from './memoryEval/evalSet';

const args = process.argv.slice(2);
const VERBOSE = args.includes('--verbose');
const env = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=', 2)));

interface Outcome {
  question: EvalQuestion;
  rank: number;
  baselineRank: number;
  empty: boolean;
  newerFirst?: boolean;
  top: string[];
}

/** 1-based rank of `text` in `contents`, 0 when absent. */
const rankOf = (contents: string[], text: string) => contents.indexOf(text) + 1;

function summary(label: string, outcomes: Outcome[]): string {
  const n = outcomes.length;
  const at = (k: number, pick: (o: Outcome) => number) =>
    outcomes.filter((o) => pick(o) > 0 && pick(o) <= k).length / n;
  const mrr = outcomes.reduce((sum, o) => sum + (o.rank > 0 && o.rank <= 10 ? 1 / o.rank : 0), 0) / n;
  const updates = outcomes.filter((o) => o.newerFirst !== undefined);
  return [
    `${label.padEnd(9)} n=${String(n).padStart(3)}`,
    `R@1 ${at(1, (o) => o.rank).toFixed(3)}`,
    `R@5 ${at(5, (o) => o.rank).toFixed(3)}`,
    `MRR@10 ${mrr.toFixed(3)}`,
    `empty ${outcomes.filter((o) => o.empty).length}`,
    `corrections newer-first ${updates.filter((o) => o.newerFirst).length}/${updates.length}`,
    `| BM25 R@5 ${at(5, (o) => o.baselineRank).toFixed(3)}`,
  ].join('  ');
}

async function main(): Promise<void> {
  const bench = await openBenchMemory(Date.parse('2026-10-28T12:00:00.000Z'), env);
  try {
    let turns = 0;
    const merges: string[] = [];
    const started = performance.now();
    for (const { subject, sessions } of EVAL_SUBJECTS) {
      for (const session of sessions) {
        for (const [index, content] of session.turns.entries()) {
          const { merged } = await bench.memory.remember({
            subject,
            content,
            session_id: session.id,
            occurred_at: turnTime(session.date, index),
          });
          if (merged) merges.push(`${session.id}.${index}`);
          turns++;
        }
      }
    }
    const rememberMs = performance.now() - started;
    // On the neural path remember answers before the vectors are written: questions wait for the background pass.
    const settle = performance.now();
    await bench.memory.vectorRepair.settled();
    const settleMs = performance.now() - settle;
    // Every turn must be its own memory, or a question's answer could be another turn's text.
    if (merges.length > 0) throw new Error(`Turns merged into others: ${merges.join(', ')}`);
    const outcomes: Outcome[] = [];
    const recallTimes: number[] = [];
    for (const question of EVAL_QUESTIONS) {
      const { subject } = subjectOf(question.answer);
      const t = performance.now();
      const { hits } = await bench.memory.recall({ subject, query: question.question, limit: 10 });
      recallTimes.push(performance.now() - t);
      const contents = hits.map((hit) => hit.memory.content);
      const plain = bench.memory.text
        .search(subject, question.question, ['episodic'], 10)
        .map((hit) => bench.memory.text.get(subject, hit.id)!.content);
      const rank = rankOf(contents, turnText(question.answer));
      const outcome: Outcome = {
        question,
        rank,
        baselineRank: rankOf(plain, turnText(question.answer)),
        empty: hits.length === 0,
        top: contents.slice(0, 3),
      };
      if (question.replaces) {
        const older = rankOf(contents, turnText(question.replaces));
        outcome.newerFirst = rank > 0 && (older === 0 || rank < older);
      }
      outcomes.push(outcome);
    }
    console.log(
      `${turns} turns remembered in ${(rememberMs / 1000).toFixed(1)} s, their vectors written ${(settleMs / 1000).toFixed(1)} s after; config ${JSON.stringify(env)}`,
    );
    console.log(
      summary(
        'tuning',
        outcomes.filter((o) => halfOf(o.question.id) === 'tuning'),
      ),
    );
    console.log(
      summary(
        'held-out',
        outcomes.filter((o) => halfOf(o.question.id) === 'held-out'),
      ),
    );
    console.log(summary('all', outcomes));
    let abstained = 0;
    for (const question of UNANSWERABLE_QUESTIONS) {
      const { hits } = await bench.memory.recall({ subject: question.subject, query: question.question });
      if (hits.length === 0) abstained++;
      else if (VERBOSE)
        console.log(`  ${question.id} answered: ${question.question} -> ${hits[0].memory.content}`);
    }
    console.log(`unrelated questions answered with nothing: ${abstained}/${UNANSWERABLE_QUESTIONS.length}`);
    recallTimes.sort((a, b) => a - b);
    const pct = (p: number) =>
      recallTimes[Math.min(recallTimes.length - 1, Math.floor(p * recallTimes.length))];
    console.log(
      `recall latency (${turns} memories): p50 ${pct(0.5).toFixed(1)} ms, p95 ${pct(0.95).toFixed(1)} ms`,
    );
    if (VERBOSE) {
      for (const o of outcomes.filter((x) => x.rank === 0 || x.rank > 5 || x.newerFirst === false))
        console.log(
          `  ${o.question.id} [${halfOf(o.question.id)}] rank ${o.rank || '-'}: ${o.question.question} -> ${o.top.join(' | ') || '(nothing)'}`,
        );
    }
  } finally {
    await bench.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
