/**
 * Retrieval quality over the platform's own repository: recall@5 and MRR (first relevant hit within the
 * top 10) for fulltext, semantic (local embedder, in-memory vectors) and hybrid (RRF). A hit is relevant
 * when its source is the question's file and its text contains the question's anchor, or it matches one of
 * the question's `also` pairs (the same fact stated in another file). The repository
 * changes, so the script first checks that every anchor is still in its file and stops (exit 1) naming
 * the stale questions otherwise.
 * Run: npx tsx bench/brainEval.ts [--verbose]
 */
import { buildInMemoryBrain, ingestRepository } from './brainCorpus';
import { questions, scoreRanking, staleAnswers } from './brainEval/evalSet';

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const stale = staleAnswers();
  if (stale.length > 0) {
    console.error(`stale questions, update bench/brainEval/questions.json:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  const brain = buildInMemoryBrain();
  const corpus = await ingestRepository(brain);
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
  for (const [name, strategy] of Object.entries(brain.strategies)) {
    const { recallAt5, mrr } = await scoreRanking(
      (question) => strategy(question, { limit: 10 }),
      (q, rank) => {
        if (verbose) console.log(`  ${name} miss ${q.id} (rank ${rank ?? '-'}): ${q.question}`);
      },
    );
    console.log(`${name.padEnd(10)} ${recallAt5.toFixed(3).padStart(8)}  ${mrr.toFixed(3).padStart(6)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
