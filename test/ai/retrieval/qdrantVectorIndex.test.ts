import { ManualClock } from '../../../platform/clock';
import { pointIdFor, QdrantVectorIndex } from '../../../ai/retrieval/qdrantVectorIndex';
import type { ChunkVector } from '../../../ai/retrieval/vectorIndex';
import { openQdrantTarget, type QdrantTarget } from '../../embedded/qdrant/qdrantTarget';

const SMALL = { model: 'small-3', dimensions: 3 };
const LOCAL = { model: 'local-4', dimensions: 4 };

function buildPoint(chunkId: string, vector: number[], overrides: Partial<ChunkVector> = {}): ChunkVector {
  return { chunkId, documentId: 'doc-a', index: 'docs', vector, ...overrides };
}

describe('QdrantVectorIndex (embedded Qdrant, or QDRANT_TEST_URL)', () => {
  let target: QdrantTarget;
  let prefix: string;
  let clock: ManualClock;

  beforeAll(async () => {
    target = await openQdrantTarget();
  });
  afterAll(() => target.close());

  beforeEach(() => {
    prefix = target.collectionName('brain_test');
    clock = new ManualClock();
  });
  afterEach(async () => {
    const { collections } = await target.client.getCollections();
    for (const { name } of collections)
      if (name.startsWith(prefix)) await target.client.deleteCollection(name);
  });

  async function openIndex(spaces = [SMALL, LOCAL]): Promise<QdrantVectorIndex> {
    const index = new QdrantVectorIndex(target.client, { collectionPrefix: prefix, clock });
    await index.open(spaces);
    return index;
  }

  it('creates one collection with a named Cosine vector per model and keyword payload indexes', async () => {
    const index = await openIndex();

    const info = await target.client.getCollection(`${prefix}_v1`);
    expect(index.collectionName).toBe(`${prefix}_v1`);
    expect(info.config.params.vectors).toMatchObject({
      'small-3': { size: 3, distance: 'Cosine' },
      'local-4': { size: 4, distance: 'Cosine' },
    });
    expect(Object.keys(info.payload_schema ?? {}).sort()).toEqual([
      'chunkId',
      'documentId',
      'index',
      'model',
    ]);
  });

  it('searches one space only, by cosine, optionally within some indexes', async () => {
    const index = await openIndex();
    await index.upsert('small-3', [
      buildPoint('c1', [1, 0, 0]),
      buildPoint('c2', [0.7, 0.7, 0], { index: 'code' }),
      buildPoint('c3', [0, 0, 1], { index: 'tests' }),
    ]);
    await index.upsert('local-4', [buildPoint('c1', [1, 0, 0, 0])]);

    const all = await index.search('small-3', [1, 0.1, 0], { limit: 2 });
    const code = await index.search('small-3', [1, 0.1, 0], { indexes: ['code', 'tests'], limit: 5 });

    expect(all.map((m) => m.chunkId)).toEqual(['c1', 'c2']);
    expect(all[0].score).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect(code.map((m) => m.chunkId)).toEqual(['c2', 'c3']);
    expect(await index.search('local-4', [0, 1, 0, 0], { limit: 5 })).toEqual([
      { chunkId: 'c1', score: expect.closeTo(0, 5) },
    ]);
    expect(await index.search('unknown-model', [1, 0, 0], { limit: 5 })).toEqual([]);
  });

  it('deletes chunks from one space or all, and whole documents', async () => {
    const index = await openIndex();
    await index.upsert('small-3', [
      buildPoint('c1', [1, 0, 0]),
      buildPoint('c2', [0, 1, 0], { documentId: 'doc-b' }),
    ]);
    await index.upsert('local-4', [
      buildPoint('c1', [1, 0, 0, 0]),
      buildPoint('c2', [0, 1, 0, 0], { documentId: 'doc-b' }),
    ]);

    await index.deleteChunks(['c1'], 'local-4');
    expect(await index.spaces()).toEqual([
      { ...SMALL, count: 2 },
      { ...LOCAL, count: 1 },
    ]);
    await index.deleteChunks(['c1']);
    expect((await index.spaces()).map((s) => s.count)).toEqual([1, 1]);
    await index.deleteByDocument('doc-b');
    expect((await index.spaces()).map((s) => s.count)).toEqual([0, 0]);
  });

  it('reuses space counts for 5 s unless it wrote, so other processes show up within that time', async () => {
    const index = await openIndex();
    const other = await openIndex();
    await index.upsert('small-3', [buildPoint('c1', [1, 0, 0])]);
    expect((await index.spaces())[0].count).toBe(1);

    await other.upsert('small-3', [buildPoint('c2', [0, 1, 0])]);
    expect((await index.spaces())[0].count).toBe(1);
    clock.advance(5_000);

    expect((await index.spaces())[0].count).toBe(2);
  });

  it('shares one count between concurrent callers and never keeps a count taken before its own write', async () => {
    const index = await openIndex();
    const count = jest.spyOn(target.client, 'count');

    const concurrent = await Promise.all(Array.from({ length: 8 }, () => index.spaces()));
    expect(concurrent.map((spaces) => spaces[0].count)).toEqual(Array(8).fill(0));
    expect(count).toHaveBeenCalledTimes(2);

    clock.advance(5_000);
    const beforeWrite = index.spaces();
    await index.upsert('small-3', [buildPoint('c1', [1, 0, 0])]);
    expect((await beforeWrite)[0].count).toBe(0);
    expect((await index.spaces())[0].count).toBe(1);
    count.mockRestore();
  });

  it('moves the points to a new version when a model is added, keeping every space', async () => {
    const first = await openIndex([SMALL]);
    await first.upsert('small-3', [buildPoint('c1', [1, 0, 0])]);

    const second = await openIndex([SMALL, LOCAL]);

    expect(second.collectionName).toBe(`${prefix}_v2`);
    expect(await target.client.collectionExists(`${prefix}_v1`)).toEqual({ exists: false });
    expect(await second.spaces()).toEqual([
      { ...SMALL, count: 1 },
      { ...LOCAL, count: 0 },
    ]);
    expect((await second.search('small-3', [1, 0, 0], { limit: 1 }))[0].chunkId).toBe('c1');
    expect((await openIndex([LOCAL])).collectionName).toBe(`${prefix}_v2`);
  });

  it('finishes a move that was interrupted before the old version was dropped', async () => {
    const old = await openIndex([SMALL]);
    await old.upsert('small-3', [buildPoint('c1', [1, 0, 0])]);
    await target.client.createCollection(`${prefix}_v2`, {
      vectors: { 'small-3': { size: 3, distance: 'Cosine' }, 'local-4': { size: 4, distance: 'Cosine' } },
    });

    const reopened = await openIndex([SMALL, LOCAL]);

    expect(reopened.collectionName).toBe(`${prefix}_v2`);
    expect(await target.client.collectionExists(`${prefix}_v1`)).toEqual({ exists: false });
    expect((await reopened.spaces())[0].count).toBe(1);
  });

  it('refuses a model whose dimensions differ from its stored space', async () => {
    await openIndex([SMALL]);

    await expect(openIndex([{ model: 'small-3', dimensions: 5 }])).rejects.toMatchObject({
      status: 409,
      code: 'BRAIN_VECTOR_SPACE_MISMATCH',
      message: 'Vector space small-3 is stored with 3 dimensions, but its provider is configured with 5',
    });
  });

  it('derives a stable UUID point id per model and chunk', () => {
    expect(pointIdFor('small-3', 'c1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(pointIdFor('small-3', 'c1')).toBe(pointIdFor('small-3', 'c1'));
    expect(pointIdFor('local-4', 'c1')).not.toBe(pointIdFor('small-3', 'c1'));
  });
});
