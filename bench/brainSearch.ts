/**
 * In-process search speed over a synthetic topical corpus (bench/syntheticCorpus.ts, default 20k chunks):
 * p50/p95 latency and queries per second for fulltext, semantic and hybrid (local embedder, in-memory
 * vectors, exact and IVF-approximate with its recall against exact), and cache-hit latency (L1).
 * bench/brainSearchHttp.ts measures the same over HTTP, on the platform's stores (the targets).
 * Run: npx tsx bench/brainSearch.ts [chunks] [queries]
 */
import { performance } from 'node:perf_hooks';
import { SearchCache } from '../ai/cache/searchCache';
import type { SearchStrategy } from '../ai/retrieval/hit';
import { SearchService } from '../ai/retrieval/searchService';
import { buildInMemoryBrain, loadChunks } from './brainCorpus';
import { percentile } from './support/stats';
import { SyntheticCorpus } from './syntheticCorpus';

const CHUNKS = Number(process.argv[2] ?? 20_000);
const QUERIES = Number(process.argv[3] ?? 2_000);

async function measure(
  name: string,
  run: (query: string) => Promise<unknown>,
  queries: string[],
): Promise<void> {
  for (const q of queries.slice(0, 50)) await run(q);
  const times: number[] = [];
  const started = performance.now();
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    times.push(performance.now() - t);
  }
  const total = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(12)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  ${(queries.length / total).toFixed(0)} q/s`,
  );
}

async function semanticRecall(
  exact: SearchStrategy,
  approximate: SearchStrategy,
  queries: string[],
): Promise<number> {
  let found = 0;
  for (const q of queries) {
    const truth = new Set((await exact(q, { limit: 10, snippets: false })).map((h) => h.chunkId));
    found += (await approximate(q, { limit: 10, snippets: false })).filter((h) =>
      truth.has(h.chunkId),
    ).length;
  }
  return found / (queries.length * 10);
}

async function main(): Promise<void> {
  const started = performance.now();
  const corpus = new SyntheticCorpus();
  const chunks = Array.from({ length: CHUNKS }, (_, i) => corpus.chunk(i));
  const exact = buildInMemoryBrain();
  await loadChunks(exact, chunks);
  const approximate = buildInMemoryBrain({ approximateVectors: true });
  await loadChunks(approximate, chunks);
  console.log(
    `corpus: ${CHUNKS} chunks, indexed and embedded twice in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const queries = Array.from({ length: QUERIES }, () => corpus.query());
  const trainingStarted = performance.now();
  await approximate.strategies.semantic(queries[0]);
  console.log(
    `IVF training (first approximate query): ${(performance.now() - trainingStarted).toFixed(0)} ms`,
  );

  await measure('fulltext', (q) => exact.strategies.fulltext(q, { limit: 10 }), queries);
  await measure('semantic', (q) => exact.strategies.semantic(q, { limit: 10 }), queries.slice(0, 500));
  await measure('hybrid', (q) => exact.strategies.hybrid(q, { limit: 10 }), queries.slice(0, 500));
  await measure('semantic~', (q) => approximate.strategies.semantic(q, { limit: 10 }), queries);
  await measure('hybrid~', (q) => approximate.strategies.hybrid(q, { limit: 10 }), queries);
  const recall = await semanticRecall(
    exact.strategies.semantic,
    approximate.strategies.semantic,
    queries.slice(0, 300),
  );
  console.log(`semantic~ recall@10 against exact: ${recall.toFixed(3)}  (~ = IVF approximate vectors)`);

  const service = new SearchService(approximate.strategies, new SearchCache());
  const hot = queries.slice(0, 100);
  for (const q of hot) await service.search({ query: q, strategy: 'hybrid' });
  await measure(
    'cache hit',
    (q) => service.search({ query: q, strategy: 'hybrid' }),
    Array.from({ length: 2000 }, (_, i) => hot[i % 100]),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
