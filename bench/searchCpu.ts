/**
 * CPU per v2 auto search, in process (no HTTP): an in-memory brain (bench/brainCorpus.ts) holding either the
 * realistic pages of bench/ingestScale.ts (default, ingested through the ingest pipeline) or the repository's own
 * corpus (`BENCH_CORPUS=forge`), then `router.search` over queries of bench/syntheticCorpus.ts (SIMPLE keyword
 * lookups, as bench/ingestScale.ts sends) or the forge eval's questions (forge corpus, read from
 * `BENCH_CORPUS_ROOT`, default this checkout, so two builds can be compared on the same files). It prints the process's
 * CPU per query (all threads, the primary figure: it depends least on what else runs on the machine), the
 * event loop's share, and a digest of every answer's chunk ids and scores: two builds with the same digest rank
 * the same. `BENCH_PROFILE=file.cpuprofile` profiles the timed part.
 * Run: npx tsx bench/searchCpu.ts [pages=500] [queries=2000]
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { ingestFolder } from '../ai/corpus/folderIngest';
import { buildInMemoryBrain, CORPUS_PATHS } from './brainCorpus';
import { PageFactory } from './ingestScale/pages';
import { SyntheticCorpus } from './syntheticCorpus';
import { threadCpuMs } from './support/threadCpu';
import questions from './brainEval/questions.json';

const PAGES = Number(process.argv[2] ?? 500);
const QUERIES = Number(process.argv[3] ?? 2_000);
const FORGE = process.env.BENCH_CORPUS === 'forge';
/** Where the forge corpus is read (BENCH_CORPUS_ROOT, default this checkout): two builds compare on the same files. */
const ROOT = process.env.BENCH_CORPUS_ROOT ?? path.join(__dirname, '..');

async function main(): Promise<void> {
  const brain = buildInMemoryBrain({ raptor: false });
  let queries: string[];
  if (FORGE) {
    let chunks = 0;
    for (const folder of CORPUS_PATHS) {
      const report = await ingestFolder(brain.ingestor, ROOT, folder);
      chunks += report.results.reduce((sum, r) => sum + r.chunks, 0);
    }
    const asked = (questions as { questions: Array<{ question: string }> }).questions.map((q) => q.question);
    queries = Array.from({ length: QUERIES }, (_, i) => asked[i % asked.length]);
    console.log(`corpus: forge, ${chunks} chunks; ${asked.length} eval questions asked in turn`);
  } else {
    const factory = new PageFactory();
    for (let n = 0; n < PAGES; n += 50) {
      const pages = Array.from({ length: Math.min(50, PAGES - n) }, (_, i) => factory.page(n + i));
      await brain.ingestor.ingest(pages);
    }
    const corpus = new SyntheticCorpus();
    queries = Array.from({ length: QUERIES }, () => corpus.query());
    console.log(`corpus: ${PAGES} pages, ${brain.fullText.size} chunks; synthetic keyword queries`);
  }
  await brain.graph.whenIdle();
  for (const query of queries.slice(0, 100)) await brain.router.search(query);

  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const digest = createHash('sha256');
  const classes = new Map<string, number>();
  const threadsBefore = threadCpuMs();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const query of queries) {
    const { route, hits } = await brain.router.search(query);
    classes.set(String(route.class), (classes.get(String(route.class)) ?? 0) + 1);
    digest.update(`${query}\n${hits.map((h) => `${h.chunkId} ${h.score.toFixed(9)}`).join('\n')}\n`);
  }
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const threadsAfter = threadCpuMs();
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(String(process.env.BENCH_PROFILE), JSON.stringify(profile));
    profiler.disconnect();
  }
  const loop = (threadsAfter.get('event loop') ?? 0) - (threadsBefore.get('event loop') ?? 0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`routes: ${[...classes].map(([name, n]) => `${name} ${n}`).join(', ')}`);
  console.log(
    `${queries.length} searches: CPU ${(cpuMs / queries.length).toFixed(3)} ms per query (event loop ` +
      `${(loop / queries.length).toFixed(3)} ms), wall ${(wallMs / queries.length).toFixed(3)} ms per query`,
  );
  console.log(`ranking digest: ${digest.digest('hex').slice(0, 16)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
