/**
 * Retrieval quality over the platform's own repository: recall@5 and MRR (first relevant hit within the
 * top 10) for fulltext, semantic (local embedder, in-memory vectors) and hybrid (RRF). A hit is relevant
 * when its source is the question's file and its text contains the question's anchor.
 * Run: npx tsx bench/brainEval.ts [--verbose]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hit } from '../ai/retrieval/hit';
import { buildInMemoryBrain, ingestRepository } from './brainCorpus';

interface Question {
  id: string;
  question: string;
  index: string;
  source: string;
  anchor: string;
}

const questions = (
  JSON.parse(readFileSync(join(__dirname, 'brainEval/questions.json'), 'utf8')) as { questions: Question[] }
).questions;

function firstRelevantRank(hits: Hit[], q: Question): number | undefined {
  const at = hits.findIndex((h) => h.source === q.source && h.text.includes(q.anchor));
  return at === -1 ? undefined : at + 1;
}

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const brain = buildInMemoryBrain();
  const chunkCount = await ingestRepository(brain);
  const strategies = brain.strategies;
  console.log(`corpus: ${chunkCount} chunks; ${questions.length} questions`);
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
