import { seededRandom } from '../../../platform/seededRandom';
import { openQdrantTarget, qdrantError, randomVector, type QdrantTarget } from './qdrantTarget';

type Metric = 'Cosine' | 'Dot' | 'Euclid';

const DIM = 8;

function exactScore(metric: Metric, query: number[], vector: number[]): number {
  if (metric === 'Euclid') return Math.sqrt(vector.reduce((sum, v, i) => sum + (v - query[i]) ** 2, 0));
  const dot = vector.reduce((sum, v, i) => sum + v * query[i], 0);
  if (metric === 'Dot') return dot;
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  return dot / (norm(query) * norm(vector));
}

/** Brute-force ranking in double precision: the reference the engine must reproduce on small sets. */
function exactRanking(metric: Metric, query: number[], vectors: number[][]): { id: number; score: number }[] {
  return vectors
    .map((vector, id) => ({ id, score: exactScore(metric, query, vector) }))
    .sort((a, b) => (metric === 'Euclid' ? a.score - b.score : b.score - a.score));
}

describe('embedded qdrant: search and query', () => {
  let target: QdrantTarget;

  beforeAll(async () => {
    target = await openQdrantTarget();
  });

  afterAll(async () => {
    await target.close();
  });

  async function seededCollection(metric: Metric, count: number, seed: number) {
    const random = seededRandom(seed);
    const vectors = Array.from({ length: count }, () => randomVector(random, DIM));
    const name = target.collectionName(`search_${metric.toLowerCase()}`);
    await target.client.createCollection(name, { vectors: { size: DIM, distance: metric } });
    await target.client.upsert(name, {
      wait: true,
      points: vectors.map((vector, id) => ({
        id,
        vector,
        payload: { parity: id % 2 === 0 ? 'even' : 'odd', id },
      })),
    });
    return { name, vectors, random };
  }

  it.each<Metric>(['Cosine', 'Dot', 'Euclid'])(
    'ranks exactly like brute force with %s distance',
    async (metric) => {
      const { name, vectors, random } = await seededCollection(metric, 300, 7);

      for (let q = 0; q < 5; q++) {
        const query = randomVector(random, DIM);
        const { points } = await target.client.query(name, { query, limit: 10 });
        const expected = exactRanking(metric, query, vectors).slice(0, 10);

        expect(points.map((p) => p.id)).toEqual(expected.map((e) => e.id));
        points.forEach((point, i) => expect(point.score).toBeCloseTo(expected[i].score, 5));
      }
    },
  );

  it('applies filter, limit, offset, score_threshold, with_payload and with_vector', async () => {
    const { name, vectors, random } = await seededCollection('Dot', 200, 11);
    const query = randomVector(random, DIM);
    const evens = exactRanking('Dot', query, vectors).filter((hit) => hit.id % 2 === 0);

    const page = await target.client.query(name, {
      query: { nearest: query },
      filter: { must: [{ key: 'parity', match: { value: 'even' } }] },
      limit: 3,
      offset: 2,
      with_payload: ['id'],
      with_vector: true,
    });
    const thresholded = await target.client.query(name, {
      query,
      limit: 100,
      score_threshold: evens[4].score - 1e-6,
    });

    expect(page.points.map((p) => p.id)).toEqual(evens.slice(2, 5).map((e) => e.id));
    expect(page.points[0].payload).toEqual({ id: evens[2].id });
    (page.points[0].vector as number[]).forEach((value, i) =>
      expect(value).toBeCloseTo(vectors[evens[2].id][i], 6),
    );
    expect(thresholded.points.every((p) => p.score >= evens[4].score - 1e-6)).toBe(true);
    expect(thresholded.points.map((p) => p.id)).toEqual(
      exactRanking('Dot', query, vectors)
        .filter((hit) => hit.score >= evens[4].score - 1e-6)
        .map((hit) => hit.id),
    );
  });

  it('returns no payload or vector by default', async () => {
    const { name } = await seededCollection('Cosine', 5, 3);

    const { points } = await target.client.query(name, { query: [1, 0, 0, 0, 0, 0, 0, 0], limit: 1 });

    expect(points[0].payload ?? null).toBeNull();
    expect(points[0].vector ?? null).toBeNull();
  });

  it('searches a named vector with `using` and through the legacy /points/search route', async () => {
    const name = target.collectionName('search_named');
    await target.client.createCollection(name, {
      vectors: { text: { size: 2, distance: 'Cosine' }, pos: { size: 2, distance: 'Euclid' } },
    });
    await target.client.upsert(name, {
      wait: true,
      points: [
        { id: 1, vector: { text: [1, 0], pos: [10, 10] } },
        { id: 2, vector: { text: [0, 1], pos: [0, 0] } },
      ],
    });

    const byText = await target.client.query(name, { query: [0.9, 0.1], using: 'text', limit: 2 });
    const byPos = await target.client.query(name, { query: [1, 1], using: 'pos', limit: 2 });
    // @qdrant/js-client-rest 1.19 dropped search(); the route is still Qdrant's and older clients use it.
    const legacy = await fetch(`${target.url}/collections/${name}/points/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vector: { name: 'pos', vector: [1, 1] }, limit: 1, with_payload: true }),
    });

    expect(byText.points.map((p) => p.id)).toEqual([1, 2]);
    expect(byPos.points.map((p) => p.id)).toEqual([2, 1]);
    expect(byPos.points[0].score).toBeCloseTo(Math.SQRT2, 5);
    const body = (await legacy.json()) as { result: { id: number }[]; status: string };
    expect(body.status).toBe('ok');
    expect(body.result.map((p) => p.id)).toEqual([2]);
  });

  it('refuses a query vector of the wrong size and an unknown vector name', async () => {
    const { name } = await seededCollection('Cosine', 3, 5);

    await expect(qdrantError(target.client.query(name, { query: [1, 2, 3] }))).resolves.toEqual({
      status: 400,
      error: `Wrong input: Vector dimension error: expected dim: ${DIM}, got 3`,
    });
    await expect(
      qdrantError(target.client.query(name, { query: [1, 2, 3], using: 'nope' })),
    ).resolves.toEqual({
      status: 400,
      error: 'Wrong input: Not existing vector name error: nope',
    });
  });

  it('uses the HNSW graph past the indexing threshold and still fills `limit` under a selective filter', async () => {
    const name = target.collectionName('search_hnsw');
    const random = seededRandom(21);
    const vectors = Array.from({ length: 3000 }, () => randomVector(random, DIM));
    // 10 KB of 8-dim vectors is 320 points: the graph is built; full_scan_threshold 1 keeps filters on it.
    await target.client.createCollection(name, {
      vectors: { size: DIM, distance: 'Cosine' },
      optimizers_config: { indexing_threshold: 10 },
      hnsw_config: { full_scan_threshold: 1 },
    });
    for (let start = 0; start < vectors.length; start += 500) {
      await target.client.upsert(name, {
        wait: true,
        points: vectors
          .slice(start, start + 500)
          .map((vector, i) => ({ id: start + i, vector, payload: { bucket: (start + i) % 300 } })),
      });
    }
    let info = await target.client.getCollection(name);
    while (info.status !== 'green') {
      await new Promise((resolve) => setImmediate(resolve));
      info = await target.client.getCollection(name);
    }

    const query = randomVector(random, DIM);
    const plain = await target.client.query(name, { query, limit: 10 });
    const rare = await target.client.query(name, {
      query,
      limit: 10,
      filter: { must: [{ key: 'bucket', match: { value: 17 } }] },
    });
    const exactRare = exactRanking('Cosine', query, vectors).filter((hit) => hit.id % 300 === 17);

    expect(info.indexed_vectors_count).toBe(3000);
    const truth = new Set(
      exactRanking('Cosine', query, vectors)
        .slice(0, 10)
        .map((hit) => hit.id),
    );
    expect(plain.points.filter((p) => truth.has(p.id as number)).length).toBeGreaterThanOrEqual(9);
    expect(rare.points.map((p) => p.id)).toEqual(exactRare.slice(0, 10).map((hit) => hit.id));
  });
});
