import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startQdrantEngine, type QdrantEngine } from '../../../embedded/qdrant';
import { seededRandom } from '../../../platform/seededRandom';
import { randomVector } from './qdrantTarget';

const DIM = 8;
const NAME = 'tenants';
/** 1 KB of 8-dim float32 vectors is 32 points: the big tenant gets a graph, the small ones are scanned. */
const BIG = 1000;
const SMALL_TENANTS = 10;
const SMALL = 20;

function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((sum, v, i) => sum + v * b[i], 0);
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  return dot / (norm(a) * norm(b));
}

/** Brute force: ids of the `k` points nearest `query` among those `keep` accepts. */
function exactTop(vectors: Map<number, number[]>, query: number[], k: number, keep: (id: number) => boolean) {
  return [...vectors]
    .filter(([id]) => keep(id))
    .map(([id, vector]) => ({ id, score: cosine(query, vector) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((hit) => hit.id);
}

const tenantFilter = (tenant: string) => ({ must: [{ key: 'tenant', match: { value: tenant } }] });

describe('embedded qdrant: per-tenant graphs (m: 0 with payload_m)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-tenants-'));
  const random = seededRandom(41);
  const vectors = new Map<number, number[]>();
  const tenantOf = new Map<number, string>();
  let engine: QdrantEngine;
  let client: QdrantClient;

  async function open() {
    engine = await startQdrantEngine({ dir });
    client = new QdrantClient({ url: engine.url, checkCompatibility: false });
  }

  async function green() {
    let info = await client.getCollection(NAME);
    while (info.status !== 'green') {
      await new Promise((resolve) => setImmediate(resolve));
      info = await client.getCollection(NAME);
    }
    return info;
  }

  async function ids(tenant: string | null, query: number[], limit: number) {
    const filter = tenant === null ? undefined : tenantFilter(tenant);
    const result = await client.query(NAME, { query, limit, filter, with_payload: false });
    return result.points.map((point) => point.id as number);
  }

  beforeAll(async () => {
    await open();
    await client.createCollection(NAME, {
      vectors: { size: DIM, distance: 'Cosine' },
      hnsw_config: { m: 0, payload_m: 16, full_scan_threshold: 1 },
    });
    await client.createPayloadIndex(NAME, {
      field_name: 'tenant',
      field_schema: { type: 'keyword', is_tenant: true },
      wait: true,
    });
    const points = [];
    for (let id = 0; id < BIG + SMALL_TENANTS * SMALL; id++) {
      const tenant = id < BIG ? 'big' : `small-${(id - BIG) % SMALL_TENANTS}`;
      const vector = randomVector(random, DIM);
      vectors.set(id, vector);
      tenantOf.set(id, tenant);
      points.push({ id, vector, payload: { tenant } });
    }
    for (let start = 0; start < points.length; start += 300) {
      await client.upsert(NAME, { wait: true, points: points.slice(start, start + 300) });
    }
  });

  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('echoes the setting and builds a graph for the tenant above the full-scan threshold only', async () => {
    const info = await green();
    expect(info.config.hnsw_config).toMatchObject({ m: 0, payload_m: 16, full_scan_threshold: 1 });
    expect(info.payload_schema.tenant).toMatchObject({ data_type: 'keyword', params: { is_tenant: true } });
    expect(info.indexed_vectors_count).toBe(BIG);
  });

  it("answers a big tenant's search from its graph, a small tenant's and an unfiltered one exactly", async () => {
    let found = 0;
    for (let round = 0; round < 10; round++) {
      const query = randomVector(random, DIM);
      const truth = new Set(exactTop(vectors, query, 10, (id) => tenantOf.get(id) === 'big'));
      const hits = await ids('big', query, 10);
      expect(hits.every((id) => tenantOf.get(id) === 'big')).toBe(true);
      found += hits.filter((id) => truth.has(id)).length;
      expect(await ids('small-3', query, 10)).toEqual(
        exactTop(vectors, query, 10, (id) => tenantOf.get(id) === 'small-3'),
      );
      expect(await ids(null, query, 10)).toEqual(exactTop(vectors, query, 10, () => true));
    }
    expect(found / 100).toBeGreaterThanOrEqual(0.95);
  });

  it('moves a point whose tenant changes and forgets deleted points', async () => {
    const moved = [1, 2, 3, 4, 5];
    const deleted = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
    await client.setPayload(NAME, { wait: true, points: moved, payload: { tenant: 'small-0' } });
    await client.delete(NAME, { wait: true, points: deleted });
    for (const id of moved) tenantOf.set(id, 'small-0');
    for (const id of deleted) {
      vectors.delete(id);
      tenantOf.delete(id);
    }
    const query = vectors.get(3)!;
    expect((await ids('small-0', query, 1))[0]).toBe(3);
    const big = await ids('big', query, 2000);
    expect(big).toHaveLength(BIG - moved.length - deleted.length);
    expect(big.some((id) => moved.includes(id) || deleted.includes(id))).toBe(false);
    expect((await green()).indexed_vectors_count).toBe(BIG - moved.length - deleted.length);
  });

  it('rebuilds the tenant graphs after a restart, with the same answers', async () => {
    const query = randomVector(random, DIM);
    const before = await ids('big', query, 10);
    await engine.close();
    await open();
    const info = await green();
    expect(info.indexed_vectors_count).toBe(BIG - 15);
    const after = await ids('big', query, 10);
    expect(after.filter((id) => before.includes(id)).length).toBeGreaterThanOrEqual(9);
    expect(await ids('small-0', vectors.get(3)!, 1)).toEqual([3]);
  });
});
