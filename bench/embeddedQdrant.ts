/**
 * Embedded Qdrant benchmark, through @qdrant/js-client-rest like the platform:
 *   npx tsx bench/embeddedQdrant.ts [points] [dim]      (defaults 100000 x 384; or QDRANT_BENCH_POINTS / _DIM)
 * Prints upsert and HNSW build time, memory, load time after restart, and for plain and filtered queries the
 * p50 / p95 latency, recall@10 against exact search and QPS. Data is synthetic and clustered (like sentence
 * embeddings: many topics, points near their topic), from a fixed seed so runs are comparable.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startQdrantEngine, type QdrantEngine } from '../embedded/qdrant';
import { seededRandom } from '../platform/seededRandom';
import { percentile } from './support/stats';

const POINTS = Number(process.argv[2] ?? process.env.QDRANT_BENCH_POINTS ?? 100_000);
const DIM = Number(process.argv[3] ?? process.env.QDRANT_BENCH_DIM ?? 384);
const CLUSTERS = 200;
const QUERIES = Number(process.env.QDRANT_BENCH_QUERIES ?? 300);
const BATCH = 500;
const COLLECTION = 'bench';

const random = seededRandom(42);
const gaussian = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
const centroids = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIM }, gaussian));
const sample = () => {
  const centre = centroids[Math.floor(random() * CLUSTERS)];
  return centre.map((value) => value + 0.6 * gaussian());
};

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function waitForIndex(client: QdrantClient): Promise<void> {
  for (;;) {
    const info = await client.getCollection(COLLECTION);
    if (info.status === 'green') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function measureQueries(client: QdrantClient, label: string, queries: number[][], filter?: object) {
  const latencies: number[] = [];
  const serverTimes: number[] = [];
  let recallSum = 0;
  let short = 0;
  for (const query of queries) {
    const started = performance.now();
    // The raw API call exposes Qdrant's `time` field: the engine's own share of the round trip.
    const approx = await client.api().queryPoints({ collection_name: COLLECTION, query, limit: 10, filter });
    latencies.push(performance.now() - started);
    serverTimes.push((approx.data.time ?? 0) * 1000);
    const approxPoints = approx.data.result?.points ?? [];
    const exact = await client.query(COLLECTION, { query, limit: 10, filter, params: { exact: true } });
    const truth = new Set(exact.points.map((p) => p.id));
    recallSum += approxPoints.filter((p) => truth.has(p.id)).length / Math.max(truth.size, 1);
    if (approxPoints.length < exact.points.length) short++;
  }
  latencies.sort((a, b) => a - b);
  serverTimes.sort((a, b) => a - b);
  const concurrency = 4;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length)
        await client.query(COLLECTION, { query: queries[next++], limit: 10, filter });
    }),
  );
  const qps = queries.length / ((performance.now() - started) / 1000);
  console.log(
    `${label.padEnd(30)} client p50 ${percentile(latencies, 50).toFixed(2)} / p95 ${percentile(latencies, 95).toFixed(2)} ms` +
      `  engine p50 ${percentile(serverTimes, 50).toFixed(2)} / p95 ${percentile(serverTimes, 95).toFixed(2)} ms` +
      `  recall@10 ${(recallSum / queries.length).toFixed(4)}  QPS ${qps.toFixed(0)}  short ${short}`,
  );
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-bench-'));
  console.log(`embedded qdrant bench: ${POINTS} points x ${DIM} dims, ${QUERIES} queries, data in ${dir}`);
  const rssBefore = process.memoryUsage().rss;
  let engine: QdrantEngine = await startQdrantEngine({ dir });
  let client = new QdrantClient({ url: engine.url, checkCompatibility: false });
  await client.createCollection(COLLECTION, { vectors: { size: DIM, distance: 'Cosine' } });
  await client.createPayloadIndex(COLLECTION, { field_name: 'group', field_schema: 'keyword', wait: true });

  const upsertStarted = performance.now();
  for (let start = 0; start < POINTS; start += BATCH) {
    const points = Array.from({ length: Math.min(BATCH, POINTS - start) }, (_, i) => ({
      id: start + i,
      vector: sample(),
      payload: { group: `g${(start + i) % 100}`, tier: (start + i) % 2 === 0 ? 'even' : 'odd' },
    }));
    await client.upsert(COLLECTION, { wait: true, points });
  }
  const upsertMs = performance.now() - upsertStarted;
  await waitForIndex(client);
  const buildMs = performance.now() - upsertStarted;
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  console.log(`upsert (HTTP, batches of ${BATCH}, wait=true): ${(upsertMs / 1000).toFixed(1)} s`);
  console.log(`upsert + HNSW build until status green: ${(buildMs / 1000).toFixed(1)} s`);
  console.log(
    `RSS growth: ${mib(rssAfter - rssBefore)} (total RSS ${mib(rssAfter)}, bench + engine in one process)`,
  );

  const queries = Array.from({ length: QUERIES }, sample);
  for (let i = 0; i < 20; i++) await client.query(COLLECTION, { query: queries[i], limit: 10 });
  await measureQueries(client, 'query, no filter', queries);
  await measureQueries(client, 'query, filter 50% (tier)', queries, {
    must: [{ key: 'tier', match: { value: 'even' } }],
  });
  await measureQueries(client, 'query, filter 1% (group idx)', queries, {
    must: [{ key: 'group', match: { value: 'g7' } }],
  });

  const closeStarted = performance.now();
  await engine.close();
  console.log(`close (snapshot + graph save): ${((performance.now() - closeStarted) / 1000).toFixed(1)} s`);
  const loadStarted = performance.now();
  engine = await startQdrantEngine({ dir });
  console.log(
    `restart load (snapshot + saved HNSW graph): ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );
  client = new QdrantClient({ url: engine.url, checkCompatibility: false });
  const info = await client.getCollection(COLLECTION);
  console.log(
    `after restart: points ${info.points_count}, indexed vectors ${info.indexed_vectors_count}, status ${info.status}`,
  );
  await measureQueries(client, 'query after restart', queries.slice(0, 100));
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
