import { openQdrantTarget, qdrantError, type QdrantTarget } from './qdrantTarget';

const UUID_A = '6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f';

function buildPoint(
  overrides: { id?: number | string; vector?: number[]; payload?: Record<string, unknown> } = {},
) {
  return { id: 1, vector: [0.5, 0.5, 0.5], payload: { city: 'Berlin' }, ...overrides };
}

describe('embedded qdrant: points', () => {
  let target: QdrantTarget;
  let name: string;

  beforeAll(async () => {
    target = await openQdrantTarget();
  });

  afterAll(async () => {
    await target.close();
  });

  beforeEach(async () => {
    name = target.collectionName('points');
    await target.client.createCollection(name, { vectors: { size: 3, distance: 'Dot' } });
  });

  it('upserts a list with wait=true and retrieves by ids, integer and UUID, with payload and vector', async () => {
    const result = await target.client.upsert(name, {
      wait: true,
      points: [
        buildPoint({ id: 1, vector: [1, 2, 3] }),
        buildPoint({ id: UUID_A, payload: { city: 'Paris' } }),
      ],
    });

    expect(result.status).toBe('completed');
    const records = await target.client.retrieve(name, { ids: [UUID_A, 1, 999], with_vector: true });
    expect(records).toEqual([
      expect.objectContaining({ id: UUID_A, payload: { city: 'Paris' }, vector: [0.5, 0.5, 0.5] }),
      expect.objectContaining({ id: 1, payload: { city: 'Berlin' }, vector: [1, 2, 3] }),
    ]);
  });

  it('answers acknowledged for wait=false and still applies the write', async () => {
    const result = await target.client.upsert(name, { wait: false, points: [buildPoint({ id: 7 })] });

    expect(result.status).toBe('acknowledged');
    await expect(target.client.count(name)).resolves.toEqual({ count: 1 });
  });

  it('upserts a column-wise batch and replaces existing points', async () => {
    await target.client.upsert(name, { wait: true, points: [buildPoint({ id: 1, payload: { old: true } })] });

    await target.client.upsert(name, {
      wait: true,
      batch: {
        ids: [1, 2],
        vectors: [
          [1, 0, 0],
          [0, 1, 0],
        ],
        payloads: [{ city: 'Rome' }, { city: 'Oslo' }],
      },
    });

    const records = await target.client.retrieve(name, { ids: [1, 2], with_vector: true });
    expect(records.map((r) => [r.id, r.payload, r.vector])).toEqual([
      [1, { city: 'Rome' }, [1, 0, 0]],
      [2, { city: 'Oslo' }, [0, 1, 0]],
    ]);
  });

  it('deletes points by ids and by filter', async () => {
    await target.client.upsert(name, {
      wait: true,
      points: [1, 2, 3, 4].map((id) =>
        buildPoint({ id, payload: { city: id % 2 === 0 ? 'Paris' : 'Berlin' } }),
      ),
    });

    await target.client.delete(name, { wait: true, points: [1] });
    await target.client.delete(name, {
      wait: true,
      filter: { must: [{ key: 'city', match: { value: 'Paris' } }] },
    });

    const { points } = await target.client.scroll(name, { limit: 10 });
    expect(points.map((p) => p.id)).toEqual([3]);
  });

  it('sets payload by merging, on a nested key, and overwrites it', async () => {
    await target.client.upsert(name, {
      wait: true,
      points: [buildPoint({ id: 1, payload: { city: 'Berlin', meta: { a: 1 } } }), buildPoint({ id: 2 })],
    });

    await target.client.setPayload(name, { points: [1], payload: { rank: 5 }, wait: true });
    await target.client.setPayload(name, { points: [1], payload: { b: 2 }, key: 'meta', wait: true });
    await target.client.overwritePayload(name, {
      filter: { must: [{ has_id: [2] }] },
      payload: { only: 'this' },
      wait: true,
    });

    const records = await target.client.retrieve(name, { ids: [1, 2] });
    expect(records.map((r) => r.payload)).toEqual([
      { city: 'Berlin', meta: { a: 1, b: 2 }, rank: 5 },
      { only: 'this' },
    ]);
  });

  it('answers 404 when setting payload on a point that does not exist', async () => {
    await expect(
      qdrantError(target.client.setPayload(name, { points: [42], payload: { a: 1 }, wait: true })),
    ).resolves.toEqual({
      status: 404,
      error: 'Not found: No point with id 42 found',
    });
  });

  it('scrolls in id order (integers before UUIDs) with offset, filter and payload selection', async () => {
    const ids = [5, 3, UUID_A, 1, 4, 2];
    await target.client.upsert(name, {
      wait: true,
      points: ids.map((id) =>
        buildPoint({ id, payload: { even: typeof id === 'number' && id % 2 === 0, tag: 'x' } }),
      ),
    });

    const first = await target.client.scroll(name, { limit: 2 });
    const second = await target.client.scroll(name, {
      limit: 10,
      offset: first.next_page_offset ?? undefined,
    });
    const filtered = await target.client.scroll(name, {
      limit: 10,
      filter: { must: [{ key: 'even', match: { value: true } }] },
      with_payload: ['even'],
    });

    expect(first.points.map((p) => p.id)).toEqual([1, 2]);
    expect(first.next_page_offset).toBe(3);
    expect(second.points.map((p) => p.id)).toEqual([3, 4, 5, UUID_A]);
    expect(second.next_page_offset ?? null).toBeNull();
    expect(filtered.points.map((p) => [p.id, p.payload])).toEqual([
      [2, { even: true }],
      [4, { even: true }],
    ]);
  });

  it('counts all points and points matching a filter', async () => {
    await target.client.upsert(name, {
      wait: true,
      points: [1, 2, 3].map((id) => buildPoint({ id, payload: { n: id } })),
    });

    await expect(target.client.count(name)).resolves.toEqual({ count: 3 });
    await expect(
      target.client.count(name, { filter: { must: [{ key: 'n', range: { gt: 1 } }] } }),
    ).resolves.toEqual({
      count: 2,
    });
  });

  it('refuses a vector of the wrong size with Qdrant’s dimension error and writes nothing', async () => {
    const error = await qdrantError(
      target.client.upsert(name, {
        wait: true,
        points: [buildPoint({ id: 1 }), buildPoint({ id: 2, vector: [1, 2] })],
      }),
    );

    expect(error).toEqual({
      status: 400,
      error: 'Wrong input: Vector dimension error: expected dim: 3, got 2',
    });
    await expect(target.client.count(name)).resolves.toEqual({ count: 0 });
  });

  it('refuses an id that is neither an unsigned integer nor a UUID', async () => {
    const error = await qdrantError(
      target.client.upsert(name, { wait: true, points: [buildPoint({ id: 'not-a-uuid' })] }),
    );

    expect(error.status).toBe(400);
    expect(error.error).toMatch(/^Format error in JSON body: /);
  });
});
