/**
 * Search speed over HTTP (the targets): a platform process (bench/brainSearch/server.ts: embedded
 * MongoDB and Qdrant, local embedder, Redis L2 when 127.0.0.1:6379 answers) is loaded with 20k chunks
 * through POST /brain/ingest, then this process drives POST /brain/search: fulltext, hybrid and semantic
 * with distinct queries (cache misses), and cache hits (100 hot queries repeated). Each prints p50/p95
 * latency with one request in flight, then queries per second (and p95) with `concurrency` in flight.
 * `floor` is GET /brain/cache/stats, an API route doing no work (request context, rate limit, routing,
 * JSON): the HTTP stack's own cost on the machine at that moment. On a shared machine, read the rest
 * against it. Then the targets as stated, a rate and a p95 together: fulltext sent at 1,000 and hybrid
 * at 300 queries/s on a fixed schedule (open loop), latency counted from each request's due time, so a
 * server falling behind shows in the p95. The load average is printed before and after, and each line ends
 * with the server process's CPU time per request (from /proc on Linux): unlike rates and latencies, it
 * hardly moves with what else runs on the machine, and 1 s divided by it is what one free core could serve.
 * `BENCH_SERVER_PROFILE=<dir>` writes the server's CPU profile (node --cpu-prof) into that folder.
 * Run: npx tsx bench/brainSearchHttp.ts [chunks=20000] [concurrency=8]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { sendJson } from './support/postJson';
import { percentile } from './support/stats';
import { SyntheticCorpus } from './syntheticCorpus';

const CHUNKS = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const CHUNKS_PER_DOCUMENT = 4;
const DOCUMENTS_PER_REQUEST = 250;
const TOKEN = 'bench-service-token-0123456789';

async function redisUrl(): Promise<string | undefined> {
  const redis = new Redis({ lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return 'redis://127.0.0.1:6379';
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

async function startServer(redis: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  // BENCH_SERVER_PROFILE=<dir> writes the server's CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_SERVER_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', path.join(__dirname, 'brainSearch/server.ts')],
    {
      env: { ...process.env, ...(redis ? { BENCH_REDIS_URL: redis } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [url] = await new Promise<string[]>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve([line]));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url, child };
}

/** Keep-alive connections of the load (as many as the requests in flight, like a browser's or fetch's pool). */
const agent = new http.Agent({ keepAlive: true });

/** GETs a URL of the bench server, or POSTs `body` to it; answers the parsed JSON, throwing on an error status. */
async function call(url: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const target = new URL(url);
  const method = body === undefined ? 'GET' : 'POST';
  const response = await sendJson(agent, Number(target.port), method, target.pathname, body, token);
  if (response.status >= 400) throw new Error(`${url} answered ${response.status}: ${response.body}`);
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** Markdown documents of 4 sections, each section one synthetic chunk (~240 tokens), so one chunk each. */
function buildDocuments(corpus: SyntheticCorpus): { source: string; index: string; text: string }[] {
  return Array.from({ length: Math.ceil(CHUNKS / CHUNKS_PER_DOCUMENT) }, (_, d) => {
    const sections = Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, s) => {
      const chunk = corpus.chunk(d * CHUNKS_PER_DOCUMENT + s);
      return `## Part ${s + 1}\n\n${chunk.text}\n`;
    });
    const index = ['docs', 'code', 'tests'][d % 3];
    return { source: `bench/${index}/file${d}.md`, index, text: `# File ${d}\n\n${sections.join('\n')}` };
  });
}

let serverPid: number | undefined;

/**
 * CPU time (user + system) the server process has used, in ms; undefined where /proc is missing. `mainThread`
 * counts the main thread alone (not a profiler's sampling thread).
 */
function serverCpuMs(mainThread = false): number | undefined {
  try {
    const file = mainThread ? `/proc/${serverPid}/task/${serverPid}/stat` : `/proc/${serverPid}/stat`;
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks of 10 ms (USER_HZ 100).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Resolves once the server's main thread used under 5 % of a core over a whole second (at once without /proc). */
async function serverIdle(): Promise<void> {
  for (let before = serverCpuMs(true); before !== undefined;) {
    await sleep(1000);
    const after = serverCpuMs(true);
    if (after === undefined || after - before < 50) return;
    before = after;
  }
}

/** ` server CPU N µs/request` for the requests since `before`, or nothing without /proc. */
function cpuPerRequest(before: number | undefined, requests: number): string {
  const after = serverCpuMs();
  if (before === undefined || after === undefined) return '';
  return `  | server CPU ${(((after - before) * 1000) / requests).toFixed(0)} µs/request`;
}

/** A request of the bench: a search (expecting a cache hit or miss) or the floor route. */
type Probe = { search: object; cached: boolean; path?: string } | { get: string };

/** Sends the probes with `inFlight` outstanding; returns sorted latencies (ms), q/s, and wrong cache answers. */
async function drive(url: string, probes: Probe[], inFlight: number) {
  const times: number[] = [];
  let next = 0;
  let wrongCache = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < probes.length) {
        const probe = probes[next++];
        const t = performance.now();
        if ('get' in probe) {
          await call(`${url}${probe.get}`);
        } else if (
          (await call(`${url}${probe.path ?? '/brain/search'}`, probe.search)).cached !== probe.cached
        ) {
          wrongCache++;
        }
        times.push(performance.now() - t);
      }
    }),
  );
  const perSecond = probes.length / ((performance.now() - started) / 1000);
  return { times: times.sort((a, b) => a - b), perSecond, wrongCache };
}

/**
 * Latency with one request in flight (the service time, no queueing), then throughput with CONCURRENCY in
 * flight (its latencies include queueing behind the others), on distinct halves of `probes`.
 */
async function measure(name: string, url: string, probes: Probe[]): Promise<void> {
  const half = Math.floor(probes.length / 2);
  const cpu = serverCpuMs();
  const alone = await drive(url, probes.slice(0, half), 1);
  const loaded = await drive(url, probes.slice(half), CONCURRENCY);
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  const wrong = alone.wrongCache + loaded.wrongCache;
  console.log(
    `${name.padEnd(10)} 1 in flight: p50 ${f(percentile(alone.times, 50))}  p95 ${f(percentile(alone.times, 95))}` +
      `  | ${CONCURRENCY} in flight: ${loaded.perSecond.toFixed(0)} q/s, p95 ${f(percentile(loaded.times, 95))}` +
      cpuPerRequest(cpu, probes.length) +
      (wrong ? `  (${wrong} answers with the wrong cached flag)` : ''),
  );
}

/**
 * Sends the probes on a fixed schedule of `perSecond` whatever the answers (open loop) and counts each
 * latency from the request's due time. Prints the achieved rate and p50/p95.
 */
async function measureAtRate(name: string, url: string, probes: Probe[], perSecond: number): Promise<void> {
  const times: number[] = [];
  let wrongCache = 0;
  const cpu = serverCpuMs();
  const started = performance.now();
  await Promise.all(
    probes.map(async (probe, i) => {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (
        'search' in probe &&
        (await call(`${url}${probe.path ?? '/brain/search'}`, probe.search)).cached !== probe.cached
      ) {
        wrongCache++;
      }
      times.push(performance.now() - due);
    }),
  );
  const achieved = probes.length / ((performance.now() - started) / 1000);
  times.sort((a, b) => a - b);
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `${name.padEnd(10)} sent at ${perSecond}/s: ${achieved.toFixed(0)} q/s, p50 ${f(percentile(times, 50))}` +
      `  p95 ${f(percentile(times, 95))}` +
      cpuPerRequest(cpu, probes.length) +
      (wrongCache ? `  (${wrongCache} answers with the wrong cached flag)` : ''),
  );
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function distinctQueries(corpus: SyntheticCorpus, count: number, taken: Set<string>): string[] {
  const queries: string[] = [];
  while (queries.length < count) {
    const query = corpus.query();
    if (!taken.has(query)) queries.push(query);
    taken.add(query);
  }
  return queries;
}

async function main(): Promise<void> {
  const redis = await redisUrl();
  console.log(`load average (1, 5, 15 min) at start: ${load()}`);
  const { url, child } = await startServer(redis);
  serverPid = child.pid;
  try {
    const corpus = new SyntheticCorpus();
    const documents = buildDocuments(corpus);
    let started = performance.now();
    // How ingest grows with the corpus: chunks/s of each band of 2,000 chunks (two requests of 250 documents).
    const bands: string[] = [];
    let bandStarted = started;
    for (let i = 0; i < documents.length; i += DOCUMENTS_PER_REQUEST) {
      await call(`${url}/brain/ingest`, { documents: documents.slice(i, i + DOCUMENTS_PER_REQUEST) }, TOKEN);
      const done = Math.min(documents.length, i + DOCUMENTS_PER_REQUEST) * CHUNKS_PER_DOCUMENT;
      if (done % 2000 === 0 || done >= CHUNKS) {
        const chunks = done % 2000 || 2000;
        bands.push(
          `${(done / 1000).toFixed(0)}k: ${(chunks / ((performance.now() - bandStarted) / 1000)).toFixed(0)}`,
        );
        bandStarted = performance.now();
      }
    }
    const stats = (await call(`${url}/brain/stats`)) as { total_chunks: number };
    const ingestSeconds = (performance.now() - started) / 1000;
    console.log(
      `corpus: ${stats.total_chunks} chunks in ${documents.length} documents, ingested over HTTP in ` +
        `${ingestSeconds.toFixed(1)} s (${(stats.total_chunks / ingestSeconds).toFixed(0)} chunks/s); ` +
        `cache L2: ${redis ? 'Redis' : 'off'}`,
    );
    console.log(
      `ingest chunks/s by corpus size (each band of 500 documents, ending at): ${bands.join(', ')}`,
    );

    // The knowledge graph and the RAPTOR trees are kept up in the background (slices between event-loop turns,
    // Louvain on a worker): wait until both are ready.
    started = performance.now();
    type Upkeep = {
      graph: { state: string; entities: number; relations: number; communities_per_level: number[] };
      raptor: { state: string; nodes_per_level: number[]; summaries_written: number };
    };
    let upkeep = (await call(`${url}/brain/stats`)) as unknown as Upkeep;
    while (
      (upkeep.graph.state !== 'ready' || !['ready', 'empty'].includes(upkeep.raptor.state)) &&
      performance.now() - started < 1_800_000
    ) {
      await sleep(250);
      upkeep = (await call(`${url}/brain/stats`)) as unknown as Upkeep;
    }
    const { graph, raptor } = upkeep;
    const upkeepSeconds = (performance.now() - started) / 1000;
    console.log(
      `knowledge graph ${graph.state}, RAPTOR ${raptor.state} ${upkeepSeconds.toFixed(1)} s after the last ingest answered ` +
        `(${(ingestSeconds + upkeepSeconds).toFixed(1)} s in all, ` +
        `${(stats.total_chunks / (ingestSeconds + upkeepSeconds)).toFixed(0)} chunks/s with graph and tree upkeep): ` +
        `${graph.entities} entities, ${graph.relations} relations, communities per level ${graph.communities_per_level.join('/')}; ` +
        `tree nodes per level ${raptor.nodes_per_level.join('/')}, ${raptor.summaries_written} summaries written`,
    );

    // The embedded Qdrant builds its HNSW graph on the server's event loop after the ingest (as a Qdrant server's
    // optimizer would in the background): measure the steady state, once that work is done.
    started = performance.now();
    await serverIdle();
    console.log(
      `server background work (HNSW build) settled after ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const taken = new Set<string>();
    const warm = distinctQueries(corpus, 200, taken);
    started = performance.now();
    for (const query of warm) await call(`${url}/brain/search`, { query, strategy: 'hybrid' });
    console.log(`warm-up: 200 hybrid queries in ${(performance.now() - started).toFixed(0)} ms`);

    const searches = (count: number, strategy: string): Probe[] =>
      distinctQueries(corpus, count, taken).map((query) => ({ search: { query, strategy }, cached: false }));
    await measure(
      'floor',
      url,
      Array.from({ length: 4000 }, () => ({ get: '/brain/cache/stats' })),
    );
    // v2: keyword queries route SIMPLE (fulltext + rerank); comparisons route COMPLEX (all strategies, RRF, rerank).
    const v2 = (count: number, shape: (q: string) => string): Probe[] =>
      distinctQueries(corpus, count, taken).map((query) => ({
        search: { query: shape(query) },
        cached: false,
        path: '/brain/search/v2',
      }));
    await measure(
      'v2 simple',
      url,
      v2(3000, (q) => q),
    );
    const complex = (q: string) => {
      const words = q.split(' ');
      const half = Math.ceil(words.length / 2);
      return `What is the difference between ${words.slice(0, half).join(' ')} and ${words.slice(half).join(' ') || 'the rest'}?`;
    };
    await measure('v2 complex', url, v2(400, complex));
    await measureAtRate(
      'v2 simple',
      url,
      v2(1500, (q) => q),
      100,
    );
    await measure('fulltext', url, searches(6000, 'fulltext'));
    await measure('hybrid', url, searches(3000, 'hybrid'));
    await measure('semantic', url, searches(2000, 'semantic'));
    const hot = warm.slice(0, 100);
    const repeats = Array.from({ length: 6000 }, (_, i) => hot[i % 100]);
    await measure(
      'cache hit',
      url,
      repeats.map((query) => ({ search: { query, strategy: 'hybrid' }, cached: true })),
    );
    await measureAtRate('fulltext', url, searches(3000, 'fulltext'), 1000);
    await measureAtRate('hybrid', url, searches(900, 'hybrid'), 300);
    console.log(`load average (1, 5, 15 min) at the end: ${load()}`);
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    if (redis) await deleteKeys(redis, `bench:brain:${child.pid}:`);
  }
}

/** Drops the cache entries and generation the bench server left in Redis. */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url);
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 1000 })) {
    if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
  }
  await client.quit();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
