import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { ConflictError } from '../../../platform/errors';

async function buildVectorIndex() {
  const vectors = new InMemoryVectorIndex();
  await vectors.ensureSpace({ model: 'm2', dimensions: 2 });
  await vectors.upsert('m2', [
    { chunkId: 'east', documentId: 'd1', index: 'docs', vector: [1, 0] },
    { chunkId: 'north', documentId: 'd1', index: 'code', vector: [0, 5] },
    { chunkId: 'north-east', documentId: 'd2', index: 'docs', vector: [1, 1] },
  ]);
  return vectors;
}

describe('InMemoryVectorIndex', () => {
  it('returns the nearest chunks by cosine, best first, within the limit', async () => {
    const vectors = await buildVectorIndex();

    const matches = await vectors.search('m2', [2, 0.1], { limit: 2 });

    expect(matches.map((m) => m.chunkId)).toEqual(['east', 'north-east']);
    expect(matches[0].score).toBeCloseTo(0.99875, 4);
  });

  it('filters by index and answers an unknown space with no matches', async () => {
    const vectors = await buildVectorIndex();

    expect(
      (await vectors.search('m2', [1, 0], { indexes: ['code'], limit: 5 })).map((m) => m.chunkId),
    ).toEqual(['north']);
    expect(await vectors.search('other', [1, 0], { limit: 5 })).toEqual([]);
  });

  it('replaces a vector on upsert and deletes by document and by chunk', async () => {
    const vectors = await buildVectorIndex();

    await vectors.upsert('m2', [{ chunkId: 'east', documentId: 'd1', index: 'docs', vector: [-1, 0] }]);
    expect((await vectors.search('m2', [1, 0], { limit: 1 }))[0].chunkId).toBe('north-east');

    await vectors.deleteByDocument('d1');
    await vectors.deleteChunks(['missing']);
    expect(await vectors.spaces()).toEqual([{ model: 'm2', dimensions: 2, count: 1 }]);
    expect((await vectors.search('m2', [0, 1], { limit: 5 })).map((m) => m.chunkId)).toEqual(['north-east']);
  });

  it('rejects vectors and spaces of the wrong size', async () => {
    const vectors = await buildVectorIndex();

    await expect(vectors.ensureSpace({ model: 'm2', dimensions: 3 })).rejects.toThrow(ConflictError);
    await expect(
      vectors.upsert('m2', [{ chunkId: 'x', documentId: 'd', index: 'docs', vector: [1, 2, 3] }]),
    ).rejects.toThrow('Vector of 3 dimensions for space m2 of 2');
  });
});
