import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startQdrantEngine, type QdrantEngineOptions } from '../../../embedded/qdrant';

const CLI = path.resolve(__dirname, '../../../embedded/qdrant/cli.ts');

/** The engine's persistence is its own business: these tests always run the embedded engine. */
describe('embedded qdrant: persistence', () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-persist-'));
  });

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function withEngine<T>(
    run: (client: QdrantClient) => Promise<T>,
    options: Partial<QdrantEngineOptions> = {},
  ) {
    const engine = await startQdrantEngine({ dir, ...options });
    try {
      return await run(new QdrantClient({ url: engine.url, checkCompatibility: false }));
    } finally {
      await engine.close();
    }
  }

  /** Starts the CLI as its own process (node --import tsx, so SIGKILL hits the engine itself). */
  async function spawnCli(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((candidate) => candidate.startsWith('http://'));
        if (line) resolve(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`CLI exited early with code ${code}`)));
    });
    return { child, url };
  }

  it('keeps points, payload changes, deletions and payload indexes across a restart', async () => {
    await withEngine(async (client) => {
      await client.createCollection('docs', { vectors: { size: 2, distance: 'Cosine' } });
      await client.upsert('docs', {
        wait: true,
        points: [1, 2, 3].map((id) => ({ id, vector: [id, 1], payload: { n: id } })),
      });
      await client.setPayload('docs', { points: [2], payload: { tag: 'kept' }, wait: true });
      await client.delete('docs', { points: [3], wait: true });
      await client.createPayloadIndex('docs', { field_name: 'n', field_schema: 'integer', wait: true });
    });

    await withEngine(async (client) => {
      const records = await client.retrieve('docs', { ids: [1, 2, 3], with_vector: true });
      const info = await client.getCollection('docs');
      expect(records.map((r) => [r.id, r.payload])).toEqual([
        [1, { n: 1 }],
        [2, { n: 2, tag: 'kept' }],
      ]);
      expect(info.payload_schema).toEqual({ n: { data_type: 'integer', points: 2 } });
      const { points } = await client.query('docs', { query: [2, 1], limit: 1 });
      expect(points.map((p) => p.id)).toEqual([2]);
    });
  });

  it('replays log records written after a snapshot (compaction)', async () => {
    // A tiny log limit snapshots after nearly every write, so the restart reads snapshot + log.
    await withEngine(
      async (client) => {
        await client.createCollection('docs', { vectors: { size: 2, distance: 'Dot' } });
        for (let id = 1; id <= 20; id++)
          await client.upsert('docs', { wait: true, points: [{ id, vector: [id, 0] }] });
        await client.delete('docs', { points: [5], wait: true });
      },
      { compactAfterBytes: 200 },
    );

    await withEngine(async (client) => {
      await expect(client.count('docs')).resolves.toEqual({ count: 19 });
      const { points } = await client.query('docs', { query: [1, 0], limit: 2 });
      expect(points.map((p) => p.id)).toEqual([20, 19]);
    });
  });

  it('keeps an acknowledged wait=true upsert through kill -9 and drops a torn log tail', async () => {
    const { child, url } = await spawnCli();
    const client = new QdrantClient({ url, checkCompatibility: false });
    await client.createCollection('crash', { vectors: { size: 3, distance: 'Cosine' } });
    await client.upsert('crash', {
      wait: true,
      points: Array.from({ length: 50 }, (_, id) => ({ id, vector: [id + 1, 1, 0], payload: { id } })),
    });

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const wal = path.join(dir, 'collections', 'crash', 'wal.log');
    // A record header promising 1000 bytes followed by 3: what a crash mid-append leaves behind.
    fs.appendFileSync(wal, Buffer.from([0xe8, 0x03, 0, 0, 1, 2, 3, 4, 9, 9, 9]));

    await withEngine(async (restarted) => {
      await expect(restarted.count('crash')).resolves.toEqual({ count: 50 });
      await expect(restarted.retrieve('crash', { ids: [49] })).resolves.toEqual([
        expect.objectContaining({ id: 49, payload: { id: 49 } }),
      ]);
      await restarted.upsert('crash', { wait: true, points: [{ id: 50, vector: [1, 1, 1] }] });
    });
    await withEngine(async (again) => {
      await expect(again.count('crash')).resolves.toEqual({ count: 51 });
    });
  });

  it('refuses a second engine on a data directory that is in use', async () => {
    const engine = await startQdrantEngine({ dir });
    try {
      await expect(startQdrantEngine({ dir })).rejects.toThrow(
        `data directory ${dir} is in use by process ${process.pid} (lock file ${path.join(dir, 'LOCK')})`,
      );
    } finally {
      await engine.close();
    }
  });

  it('saves the HNSW graph and answers from it after a restart', async () => {
    const vectors = Array.from({ length: 400 }, (_, id) => [Math.cos(id), Math.sin(id), id / 400, 1]);
    await withEngine(async (client) => {
      await client.createCollection('graph', {
        vectors: { size: 4, distance: 'Euclid' },
        optimizers_config: { indexing_threshold: 1 },
      });
      await client.upsert('graph', { wait: true, points: vectors.map((vector, id) => ({ id, vector })) });
      while ((await client.getCollection('graph')).status !== 'green')
        await new Promise((r) => setImmediate(r));
    });
    expect(
      fs.readdirSync(path.join(dir, 'collections', 'graph')).some((file) => file.endsWith('.hnsw')),
    ).toBe(true);

    await withEngine(async (client) => {
      const info = await client.getCollection('graph');
      const { points } = await client.query('graph', { query: vectors[123], limit: 1 });
      expect(info.indexed_vectors_count).toBe(400);
      expect(points.map((p) => [p.id, p.score])).toEqual([[123, 0]]);
    });
  });
});
