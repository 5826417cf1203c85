/**
 * Retrieval quality over the platform's own repository: recall@1, recall@5 and MRR@10 (first relevant hit
 * within the top 10) for every strategy, with and without the offline reranker, and for the router's
 * `auto`, overall and per router class. The semantic strategy is measured with the offline semantic
 * embedder (`local-sem-v1-384`, the default) and, as the baseline, with the older `local-hash-v1-384`.
 * A hit is relevant when its source is the question's file and its text contains the question's anchor,
 * or it matches one of the question's `also` pairs (the same fact stated in another file). The repository
 * changes, so the script first checks that every anchor is still in its file and stops (exit 1) naming
 * the stale questions otherwise. `--verbose` lists auto's misses; `--only=<strategy>` runs one row;
 * `--no-raptor` leaves the RAPTOR trees out (auto without them, for the router's before/after). auto is
 * also scored on the odd- and the even-numbered questions apart (tune on one half, check on the other).
 * Run: npx tsx bench/brainEval.ts [--verbose]
 */
import { performance } from 'node:perf_hooks';
import { embeddingTextOf } from '../models/corpusRecords';
import { LocalHashEmbedder } from '../ai/embeddings/localHashEmbedder';
import { EmbeddingChain } from '../ai/embeddings/embeddingChain';
import { InMemoryVectorIndex } from '../ai/retrieval/memoryVectorIndex';
import { createSemanticStrategy } from '../ai/retrieval/strategies';
import type { V2Strategy } from '../ai/router/adaptiveRouter';
import { buildInMemoryBrain, ingestRepository } from './brainCorpus';
import { evaluateAnswers } from './brainEval/answerEval';
import { questions, scoreByClass, staleAnswers, type Question, type RankingScore } from './brainEval/evalSet';

const CLASSES = ['SIMPLE', 'FACTUAL', 'EXPLORATORY', 'COMPLEX'] as const;

function row(name: string, scores: Record<string, RankingScore>): string {
  const all = scores.ALL;
  const head = `${name.padEnd(18)} ${all.recallAt1.toFixed(3)}  ${all.recallAt5.toFixed(3)}  ${all.mrr.toFixed(3)}`;
  const classes = CLASSES.map((c) => `${scores[c].recallAt5.toFixed(2)}/${scores[c].mrr.toFixed(2)}`);
  return `${head}   ${classes.map((c) => c.padEnd(11)).join(' ')}`;
}

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const stale = staleAnswers();
  if (stale.length > 0) {
    console.error(`stale questions, update bench/brainEval/questions.json:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  const brain = buildInMemoryBrain({ raptor: !process.argv.includes('--no-raptor') });
  const ingestStarted = performance.now();
  const corpus = await ingestRepository(brain);
  const ingestMs = performance.now() - ingestStarted;
  const count = (key: (q: Question) => string) =>
    Object.entries(
      questions.reduce<Record<string, number>>((n, q) => ({ ...n, [key(q)]: (n[key(q)] ?? 0) + 1 }), {}),
    )
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
  console.log(`corpus: ${corpus.files} files, ${corpus.chunks} chunks; ${questions.length} questions`);
  console.log(`  by index: ${count((q) => q.index)}; by class: ${count((q) => q.class)}`);
  console.log(`  paraphrases: ${questions.filter((q) => q.paraphrase).length}`);
  console.log(`  ingest with graph and trees kept up: ${(ingestMs / 1000).toFixed(1)} s`);
  const graph = brain.graph.stats();
  console.log(
    `  graph: ${graph.entities} entities, ${graph.relations} relations, communities per level ${graph.communitiesPerLevel.join('/')}`,
  );
  const raptor = brain.raptor.stats();
  console.log(
    `  raptor: nodes per level ${raptor.nodesPerLevel.join('/')}, ${raptor.summariesWritten} summaries written`,
  );

  // The baseline embedder, over the same chunks, for the before/after of the semantic strategy.
  const hashVectors = new InMemoryVectorIndex();
  const hashChain = new EmbeddingChain({ providers: [new LocalHashEmbedder()] });
  const chunks = [...brain.fullText.allChunks()];
  const embedded = await hashChain.embed(chunks.map(embeddingTextOf));
  await hashVectors.ensureSpace({ model: embedded.model, dimensions: 384 });
  await hashVectors.upsert(
    embedded.model,
    chunks.map((c, i) => ({
      chunkId: c.id,
      documentId: c.documentId,
      index: c.index,
      vector: embedded.vectors[i],
    })),
  );
  const semanticHash = createSemanticStrategy({
    embeddings: hashChain,
    vectors: hashVectors,
    chunks: brain.fullText,
  });

  console.log(
    `\n${'strategy'.padEnd(18)} R@1    R@5    MRR     ${CLASSES.map((c) => `${c} R@5/MRR`.padEnd(11)).join(' ')}`,
  );
  const rows: Array<[string, (q: Question) => Promise<readonly { source: string; text: string }[]>]> = [
    ['semantic (hash)', (q) => semanticHash(q.question, { limit: 10 })],
  ];
  const named: V2Strategy[] = ['fulltext', 'semantic', 'hybrid', 'hyde', 'graph', 'raptor'];
  for (const strategy of named) {
    if (strategy !== 'auto' && !brain.strategies[strategy]) continue;
    rows.push([
      strategy,
      async (q) => (await brain.router.search(q.question, { strategy, rerank: false })).hits,
    ]);
    rows.push([
      `${strategy}+rerank`,
      async (q) => (await brain.router.search(q.question, { strategy })).hits,
    ]);
  }
  rows.push(['auto', async (q) => (await brain.router.search(q.question)).hits]);
  for (const [name, rank] of rows) {
    if (only && name !== only) continue;
    const onMiss =
      verbose && name === 'auto'
        ? (q: Question, at: number | undefined) =>
            console.log(`  miss ${q.id} ${q.class} (rank ${at ?? '-'}): ${q.question}`)
        : undefined;
    console.log(row(name, await scoreByClass(rank, questions, onMiss)));
  }
  if (!only || only === 'auto') {
    // A split-half check for tuning: auto on the odd- and the even-numbered questions (in file order), so a
    // setting chosen on one half can be checked on the other.
    for (const [half, set] of [
      ['odd', questions.filter((_, i) => i % 2 === 0)],
      ['even', questions.filter((_, i) => i % 2 === 1)],
    ] as const) {
      const scores = await scoreByClass(async (q) => (await brain.router.search(q.question)).hits, set);
      console.log(row(`auto, ${half} half`, scores));
    }
  }
  // In-process latency of auto per class (CPU cost of routing, fusion and reranking; no HTTP).
  for (const cls of CLASSES) {
    const asked = questions.filter((q) => brain.router.plan(q.question).class === cls);
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const q of asked) {
        const started = performance.now();
        await brain.router.search(q.question);
        times.push(performance.now() - started);
      }
    }
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2);
    console.log(
      `auto ${cls.padEnd(11)} in process: p50 ${at(50)} ms, p95 ${at(95)} ms over ${times.length} searches`,
    );
  }
  const routed = questions.filter((q) => brain.router.plan(q.question).class === q.class).length;
  console.log(`\nrouter class agrees with the label on ${routed}/${questions.length} questions`);
  await evaluateAnswers(brain, verbose);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
