/**
 * Search speed over HTTP (the targets): a platform process (bench/brainSearch/server.ts: embedded
 * MongoDB and Qdrant, local embedder, Redis L2 when 127.0.0.1:6379 answers) is loaded with 20k chunks
 * through POST /brain/ingest, then this process drives POST /brain/search with `concurrency` requests in
 * flight and prints p50/p95/p99 latency and queries per second for fulltext and hybrid (distinct queries,
 * so cache misses) and for cache hits (100 hot queries repeated). `healthz` (GET /healthz, no work) is the
 * floor of the HTTP stack on the machine at that moment: on a shared machine, read the others against it.
 * Run: npx tsx bench/brainSearchHttp.ts [chunks=20000] [concurrency=8]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
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
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'brainSearch/server.ts')], {
    env: { ...process.env, ...(redis ? { BENCH_REDIS_URL: redis } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [url] = await new Promise<string[]>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve([line]));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url, child };
}

async function post(url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs the requests with CONCURRENCY in flight; prints latency percentiles and throughput. */
async function measure(
  name: string,
  url: string,
  bodies: object[],
  expectCached: boolean | undefined,
): Promise<void> {
  const times: number[] = [];
  let next = 0;
  let wrongCache = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const t = performance.now();
        const result =
          expectCached === undefined
            ? ((await (await fetch(`${url}/healthz`)).json()) as Record<string, unknown>)
            : await post(`${url}/brain/search`, body);
        times.push(performance.now() - t);
        if (expectCached !== undefined && result.cached !== expectCached) wrongCache++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(
    `${name.padEnd(10)} p50 ${f(percentile(times, 50))}  p95 ${f(percentile(times, 95))}  ` +
      `p99 ${f(percentile(times, 99))}  ${(bodies.length / seconds).toFixed(0)} q/s` +
      (wrongCache ? `  (${wrongCache} answers with cached=${!expectCached})` : ''),
  );
}

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
  const { url, child } = await startServer(redis);
  try {
    const corpus = new SyntheticCorpus();
    const documents = buildDocuments(corpus);
    let started = performance.now();
    for (let i = 0; i < documents.length; i += DOCUMENTS_PER_REQUEST) {
      await post(`${url}/brain/ingest`, { documents: documents.slice(i, i + DOCUMENTS_PER_REQUEST) }, TOKEN);
    }
    const stats = (await (await fetch(`${url}/brain/stats`)).json()) as { total_chunks: number };
    const ingestSeconds = (performance.now() - started) / 1000;
    console.log(
      `corpus: ${stats.total_chunks} chunks in ${documents.length} documents, ingested over HTTP in ` +
        `${ingestSeconds.toFixed(1)} s (${(stats.total_chunks / ingestSeconds).toFixed(0)} chunks/s); ` +
        `cache L2: ${redis ? 'Redis' : 'off'}; ${CONCURRENCY} requests in flight`,
    );

    const taken = new Set<string>();
    const warm = distinctQueries(corpus, 200, taken);
    started = performance.now();
    for (const query of warm) await post(`${url}/brain/search`, { query, strategy: 'hybrid' });
    console.log(`warm-up: 200 hybrid queries in ${(performance.now() - started).toFixed(0)} ms`);

    await measure(
      'healthz',
      url,
      Array.from({ length: 3000 }, () => ({})),
      undefined,
    );
    await measure(
      'fulltext',
      url,
      distinctQueries(corpus, 5000, taken).map((query) => ({ query, strategy: 'fulltext' })),
      false,
    );
    await measure(
      'hybrid',
      url,
      distinctQueries(corpus, 2000, taken).map((query) => ({ query, strategy: 'hybrid' })),
      false,
    );
    await measure(
      'semantic',
      url,
      distinctQueries(corpus, 1000, taken).map((query) => ({ query, strategy: 'semantic' })),
      false,
    );
    const hot = warm.slice(0, 100);
    await measure(
      'cache hit',
      url,
      Array.from({ length: 5000 }, (_, i) => ({ query: hot[i % 100], strategy: 'hybrid' })),
      true,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
