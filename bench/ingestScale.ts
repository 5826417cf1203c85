/**
 * Ingest at operator scale (issue 37), from outside over HTTP: a fresh platform process (bench/brainSearch/server.ts:
 * embedded MongoDB and Qdrant under a new DATA_DIR, embedded defaults) takes realistic Markdown pages (prose, a
 * TypeScript code block, a settings table; 4 chunks each, bench/ingestScale/pages.ts) posted 50 per request with 4
 * requests in flight (a 503 BRAIN_INGEST_BUSY is retried after its Retry-After, as a client would), until the last
 * page's unique word is found by a fulltext search. Meanwhile /healthz is probed at 20/s and v2 SIMPLE searches
 * (keyword queries) are sent at 100/s on a fixed schedule (open loop: latency counted from each request's due time).
 * Printed per size: chunks/s to findable, server CPU per chunk by band (a fifth of the pages each: flat means the cost
 * does not grow with the corpus), /healthz p99 and search p95 during the ingest, then the background enrichment
 * (vectors, graph, RAPTOR: waited for through /brain/stats) with its rate per core (chunks per CPU-second the
 * server spent after the last page was findable), and the server's RSS at the end. The load average is printed next
 * to every size. `BENCH_SERVER_PROFILE=<dir>` writes the server's CPU profile (node --cpu-prof) there.
 * The CPU per chunk is also printed by thread (bench/support/threadCpu.ts) and the bench client's own beside it.
 * `BENCH_ENRICHMENT=0` stops at findable (the server is stopped then, so a profile covers the ingest alone).
 * `BENCH_SEARCH_PER_SECOND=0` measures the ingest alone (no search load). After the enrichment, 1,000 v2 SIMPLE searches
 * (`BENCH_QUIET_SEARCHES`) measure the server's CPU per search over HTTP.
 * Run: npx tsx bench/ingestScale.ts [sizes=2000,20000]   (e.g. 2000,20000,100000)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { sendJson } from './support/postJson';
import { percentile } from './support/stats';
import { threadCpuMs, threadCpuPer1000 } from './support/threadCpu';
import { SyntheticCorpus } from './syntheticCorpus';
import { PageFactory, uniqueWordOf, type BenchPage } from './ingestScale/pages';

const SIZES = (process.argv[2] ?? '2000,20000').split(',').map(Number);
const CHUNKS_PER_PAGE = 4;
const PAGES_PER_REQUEST = 50;
const IN_FLIGHT = 4;
const BANDS = 5;
const TOKEN = 'bench-service-token-0123456789';
/** v2 SIMPLE searches per second during the ingest (BENCH_SEARCH_PER_SECOND, default 100; 0: ingest alone). */
const SEARCH_PER_SECOND = Number(process.env.BENCH_SEARCH_PER_SECOND ?? 100);
/** v2 SIMPLE searches sent after the enrichment to measure the server's CPU per search (BENCH_QUIET_SEARCHES; 0: none). */
const QUIET_SEARCHES = Number(process.env.BENCH_QUIET_SEARCHES ?? 1000);
/** Whether to wait for the background enrichment after findable (BENCH_ENRICHMENT=0: stop at findable). */
const WAIT_FOR_ENRICHMENT = process.env.BENCH_ENRICHMENT !== '0';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/**
 * The health probes' own connections, as a load balancer's checker has: through the shared agent a probe waited for
 * one of its 64 sockets behind the searches whenever they piled up, which measured the bench's queue, not the
 * server. Several sockets, not one: probes are due every 50 ms, so on one socket a slow answer would queue all
 * the next probes behind it (the latency would then grow without bound once answers take over 50 ms).
 */
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const profile = process.env.BENCH_SERVER_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  // BENCH_SERVER_FLAGS: more node or V8 flags for the server (for example `--trace-gc-nvp`); what it prints besides
  // its address is passed on to this bench's stderr.
  flags.push(...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean));
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', path.join(__dirname, 'brainSearch/server.ts')],
    { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let address = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (address || !line.startsWith('http://')) return void process.stderr.write(`${line}\n`);
      address = line;
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { port: Number(new URL(line).port), child };
}

/** The server's CPU time (all threads, user + system) in ms, from /proc; 0 where it is missing. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function rssMiB(pid: number): string {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return `${(Number(kb) / 1024).toFixed(0)} MiB`;
  } catch {
    return 'unknown';
  }
}

async function call(
  port: number,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
  through = agent,
) {
  const response = await sendJson(through, port, method, route, body, token);
  return {
    status: response.status,
    json: () => JSON.parse(response.body) as Record<string, unknown>,
    text: response.body,
  };
}

/**
 * Sends `send()` at `perSecond` until `stop()` says so (open loop); resolves to the sorted latencies from due time.
 * `slow`, when given, receives the due time (s after the start) of every request that took over 100 ms.
 */
function openLoop(
  perSecond: number,
  stop: () => boolean,
  send: (i: number) => Promise<void>,
  slow?: number[],
): Promise<number[]> {
  const times: number[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  return (async () => {
    for (let i = 0; !stop(); i++) {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const done = () => {
        const took = performance.now() - due;
        times.push(took);
        if (took > 100) slow?.push((due - started) / 1000);
      };
      pending.push(send(i).then(done, done));
    }
    await Promise.all(pending);
    return times.sort((a, b) => a - b);
  })();
}

/** Posts every page, `PAGES_PER_REQUEST` per request, `IN_FLIGHT` at once; calls `acked` after each answer. */
async function postAll(port: number, pages: BenchPage[], acked: (pages: number) => void) {
  let next = 0;
  let done = 0;
  let retries = 0;
  let answer: Record<string, unknown> | undefined;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < pages.length) {
        const batch = pages.slice(next, next + PAGES_PER_REQUEST);
        next += batch.length;
        for (;;) {
          const response = await call(port, 'POST', '/brain/ingest', { documents: batch }, TOKEN);
          if (response.status === 503) {
            retries++;
            await sleep(250);
            continue;
          }
          if (response.status >= 400) throw new Error(`ingest answered ${response.status}: ${response.text}`);
          answer ??= response.json();
          break;
        }
        done += batch.length;
        acked(done);
      }
    }),
  );
  return { retries, answer };
}

async function findable(port: number, word: string, source: string): Promise<boolean> {
  const response = await call(port, 'POST', '/brain/search', { query: word, strategy: 'fulltext', limit: 5 });
  const hits = (response.json().hits ?? []) as { source: string }[];
  return hits.some((hit) => hit.source === source);
}

type Stats = Record<string, unknown> & {
  total_chunks: number;
  graph: { state: string; entities: number };
  raptor: { state: string; summaries_written: number };
  enrichment?: Record<string, { pending: number; done: number }>;
};

/** True once graph and RAPTOR are ready and no enrichment is pending (the `enrichment` block, where it exists). */
function enriched(stats: Stats): boolean {
  const pending = Object.values(stats.enrichment ?? {}).reduce((n, e) => n + e.pending, 0);
  return stats.graph.state === 'ready' && ['ready', 'empty'].includes(stats.raptor.state) && pending === 0;
}

async function runSize(chunks: number): Promise<void> {
  const factory = new PageFactory();
  const pages = Array.from({ length: Math.ceil(chunks / CHUNKS_PER_PAGE) }, (_, n) => factory.page(n));
  const corpus = new SyntheticCorpus();
  console.log(`\n== ${chunks} chunks (${pages.length} pages); load average at start: ${load()}`);
  const { port, child } = await startServer();
  const pid = child.pid!;
  try {
    let ingesting = true;
    const slowProbes: number[] = [];
    const health = openLoop(
      20,
      () => !ingesting,
      async () => {
        await call(port, 'GET', '/healthz', undefined, undefined, probeAgent);
      },
      slowProbes,
    );
    const searches = openLoop(
      SEARCH_PER_SECOND || 1e-9,
      () => !ingesting || SEARCH_PER_SECOND === 0,
      async () => {
        await call(port, 'POST', '/brain/search/v2', { query: corpus.query() });
      },
    );
    const cpuStart = cpuMs(pid);
    const clientStart = process.cpuUsage();
    const threadsStart = threadCpuMs(pid);
    const started = performance.now();
    const bandCpu: number[] = [];
    const bandThreads: Map<string, number>[] = [];
    const bandPages = Math.ceil(pages.length / BANDS);
    const { retries, answer } = await postAll(port, pages, (done) => {
      while (bandCpu.length < BANDS && done >= Math.min(pages.length, (bandCpu.length + 1) * bandPages)) {
        bandCpu.push(cpuMs(pid));
        bandThreads.push(threadCpuMs(pid));
      }
    });
    const ackedSeconds = (performance.now() - started) / 1000;
    const last = pages.length - 1;
    while (!(await findable(port, uniqueWordOf(last), pages[last].source))) await sleep(20);
    const findableSeconds = (performance.now() - started) / 1000;
    const cpuFindable = cpuMs(pid);
    const threadsFindable = threadCpuMs(pid);
    const clientCpu = process.cpuUsage(clientStart);
    ingesting = false;
    const [healthTimes, searchTimes] = await Promise.all([health, searches]);
    const stats0 = (await call(port, 'GET', '/brain/stats')).json() as Stats;
    const perBand = bandCpu.map((cpu, i) => {
      const before = i === 0 ? cpuStart : bandCpu[i - 1];
      const bandChunks = (Math.min(pages.length, (i + 1) * bandPages) - i * bandPages) * CHUNKS_PER_PAGE;
      return `${(((cpu - before) * 1000) / bandChunks).toFixed(0)}`;
    });
    console.log(
      `findable: ${stats0.total_chunks} chunks, last request answered after ${ackedSeconds.toFixed(1)} s, last page ` +
        `findable after ${findableSeconds.toFixed(1)} s: ${(stats0.total_chunks / findableSeconds).toFixed(0)} chunks/s to findable` +
        ` (${retries} requests retried after 503); load ${load()}`,
    );
    console.log(
      `server CPU per chunk by band (µs, each a fifth of the pages): ${perBand.join(', ')}; ` +
        `all ${(((cpuFindable - cpuStart) * 1000) / stats0.total_chunks).toFixed(0)} µs/chunk`,
    );
    printThreads(
      threadsStart,
      bandThreads,
      threadsFindable,
      stats0.total_chunks,
      bandPages * CHUNKS_PER_PAGE,
    );
    console.log(
      `bench client (this process: pages, requests, probes, searches) CPU per chunk to findable: ` +
        `${((clientCpu.user + clientCpu.system) / stats0.total_chunks).toFixed(0)} µs`,
    );
    console.log(
      `during the ingest: /healthz p50 ${percentile(healthTimes, 50).toFixed(1)} ms p99 ${percentile(healthTimes, 99).toFixed(1)} ms ` +
        `max ${healthTimes[healthTimes.length - 1]?.toFixed(0)} ms (${healthTimes.length} probes at 20/s); ` +
        `v2 SIMPLE search at ${SEARCH_PER_SECOND}/s: p50 ${percentile(searchTimes, 50).toFixed(1)} ms p95 ${percentile(searchTimes, 95).toFixed(1)} ms ` +
        `(${searchTimes.length} queries)`,
    );
    console.log(
      `/healthz probes over 100 ms: ${slowProbes.length}, by second of the ingest: ${bySecond(slowProbes)}`,
    );
    const firstDoc = (answer?.documents as Record<string, unknown>[] | undefined)?.[0];
    console.log(`first ingest answer's first document: ${JSON.stringify(firstDoc)}`);

    if (!WAIT_FOR_ENRICHMENT) return;
    const enrichStart = performance.now();
    let stats = stats0;
    while (!enriched(stats) && performance.now() - enrichStart < 3_600_000) {
      await sleep(500);
      stats = (await call(port, 'GET', '/brain/stats')).json() as Stats;
    }
    const enrichSeconds = (performance.now() - enrichStart) / 1000;
    const enrichCpu = (cpuMs(pid) - cpuFindable) / 1000;
    console.log(
      `enrichment after findable: ${enrichSeconds.toFixed(1)} s wall, ${enrichCpu.toFixed(1)} CPU-s: ` +
        `${enrichCpu > 0 ? (stats.total_chunks / enrichCpu).toFixed(0) : '∞'} chunks per CPU-second (per core); ` +
        `${stats.graph.entities} entities, ${stats.raptor.summaries_written} summaries; ` +
        `${stats.total_chunks / (findableSeconds + enrichSeconds) > 0 ? (stats.total_chunks / (findableSeconds + enrichSeconds)).toFixed(0) : 0} chunks/s ingest to fully enriched; load ${load()}`,
    );
    if (stats.enrichment) console.log(`enrichment stats: ${JSON.stringify(stats.enrichment)}`);
    console.log(
      `enrichment CPU by thread (ms per 1,000 chunks): ${threadCpuPer1000(threadsFindable, threadCpuMs(pid), stats.total_chunks)}`,
    );
    await searchCost(port, pid);
    console.log(`server memory at the end: RSS ${rssMiB(pid)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** `12 (3), 58 (6)`: how many of `times` (s) fell in each whole second, in order. */
function bySecond(times: number[]): string {
  const counts = new Map<number, number>();
  for (const t of times.sort((a, b) => a - b))
    counts.set(Math.floor(t), (counts.get(Math.floor(t)) ?? 0) + 1);
  return [...counts].map(([second, n]) => `${second} (${n})`).join(', ') || 'none';
}

/**
 * The server's CPU per chunk to findable by thread (event loop, engines, chunker, V8's helpers, …): over the first
 * and the last fifth of the pages and over the whole ingest, so what grows with the corpus shows by thread.
 */
function printThreads(
  start: Map<string, number>,
  bands: Map<string, number>[],
  findable: Map<string, number>,
  chunks: number,
  bandChunks: number,
): void {
  const per = threadCpuPer1000; // ms per 1,000 chunks = µs per chunk
  if (bands.length === BANDS) {
    console.log(`server CPU per chunk by thread, first fifth (µs): ${per(start, bands[0], bandChunks)}`);
    console.log(
      `server CPU per chunk by thread, last fifth (µs): ${per(bands[BANDS - 2], bands[BANDS - 1], bandChunks)}`,
    );
  }
  console.log(`server CPU per chunk by thread, to findable (µs): ${per(start, findable, chunks)}`);
}

/**
 * The server's CPU per v2 SIMPLE search over HTTP once the ingest and its enrichment are done: QUIET_SEARCHES keyword
 * queries (the same seeded sequence every run), 4 in flight, with the server's idle CPU over 2 s before as the floor.
 */
async function searchCost(port: number, pid: number): Promise<void> {
  if (QUIET_SEARCHES <= 0) return;
  const idleStart = cpuMs(pid);
  await sleep(2_000);
  const idlePerSecond = (cpuMs(pid) - idleStart) / 2;
  const corpus = new SyntheticCorpus();
  const queries = Array.from({ length: QUIET_SEARCHES }, () => corpus.query());
  let next = 0;
  let cached = 0;
  const cpuStart = cpuMs(pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < queries.length) {
        const response = await call(port, 'POST', '/brain/search/v2', { query: queries[next++] });
        if (response.json().cached === true) cached++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `v2 SIMPLE search after the ingest (${queries.length} queries, 4 in flight, ${cached} from the cache): server CPU ` +
      `${((cpuMs(pid) - cpuStart) / queries.length).toFixed(2)} ms per query (idle beside it: ${idlePerSecond.toFixed(0)} ` +
      `ms/s), ${(queries.length / seconds).toFixed(0)} queries/s; load ${load()}`,
  );
}

async function main(): Promise<void> {
  for (const size of SIZES) await runSize(size);
  agent.destroy();
  probeAgent.destroy();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
