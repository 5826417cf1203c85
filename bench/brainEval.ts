/**
 * Retrieval quality over the platform's own repository: recall@5 and MRR (first relevant hit within the
 * top 10) for fulltext, semantic (local embedder, in-memory vectors) and hybrid (RRF). A hit is relevant
 * when its source is the question's file and its text contains the question's anchor, or it matches one of
 * the question's `also` pairs (the same fact stated in another file). The repository
 * changes, so the script first checks that every anchor is still in its file and stops (exit 1) naming
 * the stale questions otherwise.
 * Run: npx tsx bench/brainEval.ts [--verbose]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hit } from '../ai/retrieval/hit';
import { buildInMemoryBrain, ingestRepository } from './brainCorpus';

const ROOT = join(__dirname, '..');

interface Answer {
  source: string;
  anchor: string;
}

interface Question extends Answer {
  id: string;
  question: string;
  index: string;
  /** The same fact stated elsewhere (the README documenting the SPEC, a second test doing the same). */
  also?: Answer[];
}

const answersOf = (q: Question): Answer[] => [q, ...(q.also ?? [])];

const questions = (
  JSON.parse(readFileSync(join(__dirname, 'brainEval/questions.json'), 'utf8')) as { questions: Question[] }
).questions;

function firstRelevantRank(hits: Hit[], q: Question): number | undefined {
  const at = hits.findIndex((h) =>
    answersOf(q).some((a) => h.source === a.source && h.text.includes(a.anchor)),
  );
  return at === -1 ? undefined : at + 1;
}

/** Answers whose file is gone or no longer holds the anchor. */
function staleAnswers(): string[] {
  return questions.flatMap((q) =>
    answersOf(q)
      .filter(
        (a) =>
          !existsSync(join(ROOT, a.source)) || !readFileSync(join(ROOT, a.source), 'utf8').includes(a.anchor),
      )
      .map((a) => `${q.id} (${a.source}: ${JSON.stringify(a.anchor)})`),
  );
}

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const stale = staleAnswers();
  if (stale.length > 0) {
    console.error(`stale questions, update bench/brainEval/questions.json:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  const brain = buildInMemoryBrain();
  const corpus = await ingestRepository(brain);
  const strategies = brain.strategies;
  const perIndex = questions.reduce<Record<string, number>>(
    (n, q) => ({ ...n, [q.index]: (n[q.index] ?? 0) + 1 }),
    {},
  );
  console.log(
    `corpus: ${corpus.files} files, ${corpus.chunks} chunks; ${questions.length} questions ` +
      `(${Object.entries(perIndex)
        .map(([index, n]) => `${n} ${index}`)
        .join(', ')})`,
  );
  console.log('strategy   recall@5  MRR@10');
  for (const [name, strategy] of Object.entries(strategies)) {
    let found = 0;
    let reciprocal = 0;
    for (const q of questions) {
      const rank = firstRelevantRank(await strategy(q.question, { limit: 10 }), q);
      if (rank !== undefined && rank <= 5) found++;
      reciprocal += rank ? 1 / rank : 0;
      if (verbose && (rank === undefined || rank > 5))
        console.log(`  ${name} miss ${q.id} (rank ${rank ?? '-'}): ${q.question}`);
    }
    console.log(
      `${name.padEnd(10)} ${(found / questions.length).toFixed(3).padStart(8)}  ${(reciprocal / questions.length).toFixed(3).padStart(6)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
