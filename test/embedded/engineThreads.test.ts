import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { MongoClient } from 'mongodb';
import { embeddedEngines, embeddedEnginesFor } from '../../embedded';
import { threadedEngines } from '../../embedded/threads/engineThreads';
import { createLogger } from '../../platform/logger';
import { LogCapture } from '../helpers/logCapture';

/** Every engine thread started, so a test can end one the way a crash would. */
const threads: import('node:worker_threads').Worker[] = [];
jest.mock('node:worker_threads', () => {
  const actual = jest.requireActual<typeof import('node:worker_threads')>('node:worker_threads');
  class RecordedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      threads.push(this);
    }
  }
  return { ...actual, Worker: RecordedWorker };
});

/** The names of this process's OS threads (Linux). */
function threadNames(): string[] {
  return fs
    .readdirSync('/proc/self/task')
    .map((tid) => fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
}

/** The embedded engines on worker threads (EMBEDDED_ENGINE_THREADS, the server's default). */
describe('embedded engines on worker threads', () => {
  let dir: string;
  let logs: LogCapture;
  const logger = () => createLogger({ level: 'info', destination: logs });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-engine-threads-'));
    logs = new LogCapture();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves MongoDB from its own thread, relays its logs, and keeps its data across a restart', async () => {
    const mongoDir = path.join(dir, 'mongo');
    const engine = await threadedEngines.mongo({
      dir: mongoDir,
      logger: logger().child({ component: 'embedded-mongo' }),
    });
    const listening = await logs.waitForLine((line) => line.msg === 'embedded MongoDB engine listening');
    expect(listening).toMatchObject({ component: 'embedded-mongo', uri: engine.uri, level: 'info' });
    expect(listening.thread).toEqual(expect.any(Number));
    expect(listening.thread).not.toBe(0);
    // The OS thread is named for its engine (top -H, ps -L, the benches' CPU per thread).
    if (process.platform === 'linux') expect(threadNames()).toContain('mongo-engine');

    const client = new MongoClient(engine.uri);
    await client
      .db('t')
      .collection('things')
      .insertMany([{ _id: 'a', n: 1 } as never, { _id: 'b', n: 2 } as never]);
    await client.close();
    await engine.close();
    expect(fs.existsSync(path.join(mongoDir, 'LOCK'))).toBe(false);

    const again = await threadedEngines.mongo({ dir: mongoDir, logger: logger() });
    const reader = new MongoClient(again.uri);
    const docs = await reader.db('t').collection('things').find().sort({ _id: 1 }).toArray();
    await reader.close();
    await again.close();
    expect(docs).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 2 },
    ]);
  });

  it('answers an engine that cannot start with its own error, and leaves the running one alone', async () => {
    const mongoDir = path.join(dir, 'mongo');
    const running = await threadedEngines.mongo({ dir: mongoDir, logger: logger() });
    await expect(threadedEngines.mongo({ dir: mongoDir, logger: logger() })).rejects.toThrow(
      /data directory .* is in use by process/,
    );
    const client = new MongoClient(running.uri);
    expect(await client.db('t').command({ ping: 1 })).toMatchObject({ ok: 1 });
    await client.close();
    await running.close();
  });

  it('serves Qdrant from its own thread, HNSW graph included', async () => {
    const engine = await threadedEngines.qdrant({ dir: path.join(dir, 'qdrant'), logger: logger() });
    if (process.platform === 'linux') expect(threadNames()).toContain('qdrant-engine');
    const client = new QdrantClient({ url: engine.url, checkCompatibility: false });
    await client.createCollection('points', {
      vectors: { size: 4, distance: 'Cosine' },
      optimizers_config: { indexing_threshold: 1 },
      hnsw_config: { full_scan_threshold: 1 },
    });
    const points = Array.from({ length: 400 }, (_, i) => ({
      id: i + 1,
      vector: [Math.cos(i), Math.sin(i), (i % 7) / 7, 1],
    }));
    await client.upsert('points', { wait: true, points });
    let info = await client.getCollection('points');
    while (info.status !== 'green') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      info = await client.getCollection('points');
    }
    const hits = await client.query('points', { query: points[41].vector, limit: 1 });
    await engine.close();
    expect(info.indexed_vectors_count).toBe(400);
    expect(hits.points[0].id).toBe(42);
  });

  it('reports a thread that dies after starting as fatal and hands its error to onDeath', async () => {
    const deaths: Error[] = [];
    await threadedEngines.mongo({
      dir: path.join(dir, 'mongo'),
      logger: logger(),
      onDeath: (error) => deaths.push(error),
    });
    await threads.at(-1)!.terminate();
    const fatal = await logs.waitForLine((line) => line.msg === 'embedded engine thread failed');

    expect(fatal).toMatchObject({ level: 'fatal', engine: 'mongo' });
    expect(deaths.map((error) => error.message)).toEqual(['embedded mongo engine thread exited with code 1']);
  });

  it('is what a server starts unless EMBEDDED_ENGINE_THREADS is 0', () => {
    expect(embeddedEnginesFor(true)).toBe(threadedEngines);
    expect(embeddedEnginesFor(false)).toBe(embeddedEngines);
  });
});
