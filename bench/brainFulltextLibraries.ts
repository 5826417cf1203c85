/**
 * The FULLTEXT index against the maintained BM25 libraries of the npm registry (bench/brainSearch/
 * fulltextEngines.ts: same fields, weights, BM25 parameters and term analysis for all). Speed, in process,
 * over the 20k-chunk synthetic corpus of the HTTP bench with 2,000 queries of 2-5 words: build time, p50/p95
 * and queries per second for the top 10, the top 30 (hybrid's depth) and the top 10 of one index, and the
 * time to replace a 4-chunk document (what an ingest does). Quality over the repository with the eval set
 * of bench/brainEval.ts: recall@5 and MRR@10 of fulltext alone and of hybrid (each engine's top 30 fused by
 * RRF with the same semantic ranking). The libraries are not dependencies: install them in a folder and name
 * it, e.g. `npm install --prefix /tmp/fulltext-libraries @orama/orama minisearch wink-bm25-text-search`.
 * Run: npx tsx bench/brainFulltextLibraries.ts [libraries folder, default: the repository]
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ChunkRecord } from '../models/corpusRecords';
import { reciprocalRankFusion } from '../ai/retrieval/fusion';
import type { Hit } from '../ai/retrieval/hit';
import { buildInMemoryBrain, ingestRepository } from './brainCorpus';
import { scoreRanking } from './brainEval/evalSet';
import { loadEngines, type FulltextEngine, type Ranked } from './brainSearch/fulltextEngines';
import { percentile } from './support/stats';
import { SyntheticCorpus } from './syntheticCorpus';

const QUERIES = 2_000;
const CHUNKS = 20_000;

async function timeQueries(run: (query: string) => Promise<unknown>, queries: string[]): Promise<string> {
  const times: number[] = [];
  const started = performance.now();
  for (const query of queries) {
    const t = performance.now();
    await run(query);
    times.push(performance.now() - t);
  }
  const perSecond = queries.length / ((performance.now() - started) / 1000);
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 50).toFixed(2)} p95 ${percentile(times, 95).toFixed(2)} ms ${perSecond.toFixed(0).padStart(6)} q/s`;
}

async function speed(engine: FulltextEngine, chunks: ChunkRecord[], queries: string[]): Promise<string[]> {
  const started = performance.now();
  await engine.build(chunks);
  const build = `build ${((performance.now() - started) / 1000).toFixed(1)} s`;
  for (const query of queries.slice(0, 100)) await engine.search(query, 10);
  const lines = [
    `top 10         ${await timeQueries((q) => engine.search(q, 10), queries)}`,
    `top 30         ${await timeQueries((q) => engine.search(q, 30), queries)}`,
    `top 10 of docs ${await timeQueries((q) => engine.search(q, 10, ['docs']), queries)}`,
  ];
  let replace = 'replace a document: not possible after building';
  if (engine.replace) {
    const t = performance.now();
    for (let d = 0; d < 50; d++)
      await engine.replace(chunks.slice(d * 4, d * 4 + 4), chunks.slice(d * 4, d * 4 + 4));
    replace = `replace a 4-chunk document ${((performance.now() - t) / 50).toFixed(2)} ms`;
  }
  return [`${build}, ${replace}`, ...lines];
}

async function quality(
  engine: FulltextEngine,
  brain: ReturnType<typeof buildInMemoryBrain>,
  chunks: ChunkRecord[],
): Promise<string> {
  await engine.build(chunks);
  const byId = new Map(chunks.map((c) => [c.id, c]));
  const asHits = (ranked: Ranked[]): Hit[] =>
    ranked.map((r) => ({ ...brainHit(byId.get(r.id)!), score: r.score }));
  const fulltext = await scoreRanking(async (q) => asHits(await engine.search(q, 10)));
  const hybrid = await scoreRanking(async (q) =>
    reciprocalRankFusion(
      [
        asHits(await engine.search(q, 30)),
        await brain.strategies.semantic(q, { limit: 30, snippets: false }),
      ],
      60,
      10,
    ),
  );
  const f = (n: number) => n.toFixed(3);
  return `fulltext recall@5 ${f(fulltext.recallAt5)} MRR ${f(fulltext.mrr)}  hybrid recall@5 ${f(hybrid.recallAt5)} MRR ${f(hybrid.mrr)}`;
}

function brainHit(chunk: ChunkRecord): Hit {
  return {
    chunkId: chunk.id,
    documentId: chunk.documentId,
    index: chunk.index,
    source: chunk.source,
    title: chunk.title,
    headingPath: chunk.headingPath,
    symbols: chunk.symbols,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    text: chunk.text,
    snippet: '',
    score: 0,
    strategy: 'fulltext',
    foundBy: ['fulltext'],
  };
}

async function main(): Promise<void> {
  const { engines, missing } = loadEngines(process.argv[2] ?? join(__dirname, '..'));
  if (missing.length > 0) console.log(`not installed, skipped: ${missing.join(', ')}`);

  const brain = buildInMemoryBrain();
  await ingestRepository(brain);
  const repository: ChunkRecord[] = [];
  for await (const chunk of brain.store.allChunks()) repository.push(chunk);
  const corpus = new SyntheticCorpus();
  const synthetic = Array.from({ length: CHUNKS }, (_, i) => corpus.chunk(i));
  const queries = Array.from({ length: QUERIES }, () => corpus.query());
  console.log(
    `quality: ${repository.length} repository chunks; speed: ${CHUNKS} synthetic chunks, ${QUERIES} queries`,
  );

  for (const candidate of engines) {
    console.log(`\n${candidate.name} ${candidate.version}`);
    console.log(`  ${await quality(candidate.create(), brain, repository)}`);
    for (const line of await speed(candidate.create(), synthetic, queries)) console.log(`  ${line}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
