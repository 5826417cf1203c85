import { openQdrantTarget, qdrantError, type QdrantTarget } from './qdrantTarget';

describe('embedded qdrant: collections', () => {
  let target: QdrantTarget;

  beforeAll(async () => {
    target = await openQdrantTarget();
  });

  afterAll(async () => {
    await target.close();
  });

  it('creates a collection with one unnamed vector and reports its config and points count', async () => {
    const name = target.collectionName('single');
    await expect(
      target.client.createCollection(name, { vectors: { size: 4, distance: 'Dot' } }),
    ).resolves.toBe(true);
    await target.client.upsert(name, { wait: true, points: [{ id: 1, vector: [1, 2, 3, 4] }] });

    const info = await target.client.getCollection(name);

    expect(info.status).toBe('green');
    expect(info.points_count).toBe(1);
    expect(info.config.params.vectors).toEqual({ size: 4, distance: 'Dot' });
    expect(info.config.hnsw_config).toMatchObject({ m: 16, ef_construct: 100, full_scan_threshold: 10000 });
    expect(info.payload_schema).toEqual({});
  });

  it('creates a collection with named vectors of different sizes and distances', async () => {
    const name = target.collectionName('named');
    await target.client.createCollection(name, {
      vectors: { text: { size: 3, distance: 'Cosine' }, image: { size: 2, distance: 'Euclid' } },
    });

    const info = await target.client.getCollection(name);

    expect(info.config.params.vectors).toEqual({
      text: { size: 3, distance: 'Cosine' },
      image: { size: 2, distance: 'Euclid' },
    });
    expect(info.points_count).toBe(0);
  });

  it('answers exists, lists collections and deletes them', async () => {
    const name = target.collectionName('lifecycle');
    await expect(target.client.collectionExists(name)).resolves.toEqual({ exists: false });
    await target.client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });

    await expect(target.client.collectionExists(name)).resolves.toEqual({ exists: true });
    const { collections } = await target.client.getCollections();
    expect(collections).toContainEqual({ name });

    await expect(target.client.deleteCollection(name)).resolves.toBe(true);
    await expect(target.client.collectionExists(name)).resolves.toEqual({ exists: false });
    await expect(target.client.deleteCollection(name)).resolves.toBe(false);
  });

  it('answers 404 with Qdrant’s message for an unknown collection', async () => {
    const name = target.collectionName('missing');

    await expect(qdrantError(target.client.getCollection(name))).resolves.toEqual({
      status: 404,
      error: `Not found: Collection \`${name}\` doesn't exist!`,
    });
    await expect(qdrantError(target.client.count(name))).resolves.toEqual({
      status: 404,
      error: `Not found: Collection \`${name}\` doesn't exist!`,
    });
  });

  it('answers 409 when the collection already exists', async () => {
    const name = target.collectionName('twice');
    await target.client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });

    await expect(
      qdrantError(target.client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } })),
    ).resolves.toEqual({ status: 409, error: `Wrong input: Collection \`${name}\` already exists!` });
  });

  it('creates payload indexes and reports them in the payload schema', async () => {
    const name = target.collectionName('indexes');
    await target.client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });
    await target.client.upsert(name, {
      wait: true,
      points: [
        { id: 1, vector: [1, 0], payload: { city: 'Berlin', body: 'red fox' } },
        { id: 2, vector: [0, 1], payload: { city: 'Paris' } },
      ],
    });

    const created = await target.client.createPayloadIndex(name, {
      field_name: 'city',
      field_schema: 'keyword',
      wait: true,
    });
    await target.client.createPayloadIndex(name, {
      field_name: 'body',
      field_schema: { type: 'text', tokenizer: 'word', lowercase: true },
      wait: true,
    });

    expect(created.status).toBe('completed');
    const info = await target.client.getCollection(name);
    expect(info.payload_schema.city).toEqual({ data_type: 'keyword', points: 2 });
    expect(info.payload_schema.body).toMatchObject({ data_type: 'text', points: 1 });
  });
});
