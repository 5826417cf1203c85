import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import type { ChunkVector } from '../../../ai/retrieval/vectorIndex';

// Deterministic vectors around 40 directions, like embeddings of 40 topics.
function buildPoints(count: number, dims = 32): ChunkVector[] {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const topics = Array.from({ length: 40 }, () => Array.from({ length: dims }, random));
  return Array.from({ length: count }, (_, i) => ({
    chunkId: `c${i}`,
    documentId: `d${i % 100}`,
    index: 'docs',
    vector: topics[i % 40].map((v) => v + 0.6 * random()),
  }));
}

async function buildPair(points: ChunkVector[]) {
  const exact = new InMemoryVectorIndex();
  const approximate = new InMemoryVectorIndex({ approximate: { minVectors: 1000 } });
  for (const index of [exact, approximate]) {
    await index.ensureSpace({ model: 'm', dimensions: points[0].vector.length });
    await index.upsert('m', points);
  }
  return { exact, approximate };
}

async function recallAt10(exact: InMemoryVectorIndex, approximate: InMemoryVectorIndex, queries: number[][]) {
  let found = 0;
  for (const vector of queries) {
    const truth = new Set((await exact.search('m', vector, { limit: 10 })).map((m) => m.chunkId));
    found += (await approximate.search('m', vector, { limit: 10 })).filter((m) =>
      truth.has(m.chunkId),
    ).length;
  }
  return found / (queries.length * 10);
}

describe('InMemoryVectorIndex with approximate search', () => {
  it('finds at least 90% of the exact top 10', async () => {
    const points = buildPoints(3000);
    const { exact, approximate } = await buildPair(points);

    expect(
      await recallAt10(
        exact,
        approximate,
        points.slice(0, 100).map((p) => p.vector),
      ),
    ).toBeGreaterThanOrEqual(0.9);
  });

  it('stays consistent through deletes and upserts after training', async () => {
    const points = buildPoints(2000);
    const { exact, approximate } = await buildPair(points);
    await approximate.search('m', points[0].vector, { limit: 10 });

    for (const index of [exact, approximate]) {
      await index.deleteByDocument('d3');
      await index.upsert('m', buildPoints(2100).slice(2000));
      await index.upsert('m', [{ ...points[5], vector: points[6].vector }]);
    }

    const hits = await approximate.search('m', points[6].vector, { limit: 50 });
    expect(hits.some((h) => h.chunkId === 'c3')).toBe(false);
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.chunkId)
        .sort(),
    ).toEqual(['c5', 'c6']);
    expect((await approximate.spaces())[0].count).toBe(2080);
    expect(
      await recallAt10(
        exact,
        approximate,
        points.slice(10, 60).map((p) => p.vector),
      ),
    ).toBeGreaterThanOrEqual(0.85);
  });

  it('searches small spaces exactly', async () => {
    const points = buildPoints(500);
    const { exact, approximate } = await buildPair(points);

    expect(
      await recallAt10(
        exact,
        approximate,
        points.slice(0, 20).map((p) => p.vector),
      ),
    ).toBe(1);
  });
});
