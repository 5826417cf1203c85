import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { startQdrantEngine, type QdrantEngine } from '../../../embedded/qdrant';
import { qdrantError } from './qdrantTarget';

/**
 * What the engine deliberately does not implement answers a Qdrant-style error naming the feature, and changes
 * nothing, instead of an approximate result. A real Qdrant supports these, so this suite always runs the engine.
 */
describe('embedded qdrant: refusals', () => {
  let dir: string;
  let engine: QdrantEngine;
  let client: QdrantClient;

  const refusal = (feature: string) => ({
    status: 400,
    error: `Bad request: ${feature} is not supported by the embedded Qdrant engine`,
  });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-refusals-'));
    engine = await startQdrantEngine({ dir });
    client = new QdrantClient({ url: engine.url, checkCompatibility: false });
    await client.createCollection('docs', { vectors: { size: 2, distance: 'Cosine' } });
    await client.upsert('docs', {
      wait: true,
      points: [
        { id: 1, vector: [1, 0], payload: { city: 'Berlin', rank: 2 } },
        { id: 2, vector: [0, 1], payload: { city: 'Paris', rank: 1 } },
      ],
    });
  });

  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses collection features it does not implement and creates nothing', async () => {
    await expect(
      qdrantError(
        client.createCollection('sparse', {
          vectors: { size: 2, distance: 'Dot' },
          sparse_vectors: { text: {} },
        }),
      ),
    ).resolves.toEqual(refusal('sparse vectors'));
    await expect(
      qdrantError(client.createCollection('manhattan', { vectors: { size: 2, distance: 'Manhattan' } })),
    ).resolves.toEqual(refusal('Manhattan distance'));
    await expect(client.getCollections()).resolves.toEqual({ collections: [{ name: 'docs' }] });
  });

  it('refuses query forms other than a dense vector', async () => {
    await expect(qdrantError(client.query('docs', { query: 1 }))).resolves.toEqual(
      refusal('querying by point id'),
    );
    await expect(
      qdrantError(client.query('docs', { prefetch: [{ query: [1, 0], limit: 5 }], query: [1, 0] })),
    ).resolves.toEqual(refusal('query prefetch'));
    await expect(qdrantError(client.query('docs', { query: { fusion: 'rrf' } }))).resolves.toEqual(
      refusal('`fusion` query'),
    );
  });

  it('refuses filters and orderings it cannot evaluate exactly', async () => {
    const geo: Schemas['Filter'] = {
      must: [{ key: 'where', geo_radius: { center: { lon: 13.4, lat: 52.5 }, radius: 1000 } }],
    };
    await expect(qdrantError(client.count('docs', { filter: geo }))).resolves.toEqual(
      refusal('geo filtering'),
    );
    await expect(
      qdrantError(client.scroll('docs', { filter: { must: [{ key: 'city', match: { prefix: 'Ber' } }] } })),
    ).resolves.toEqual(refusal('match.prefix'));
    await expect(qdrantError(client.scroll('docs', { order_by: 'rank' }))).resolves.toEqual(
      refusal('scroll with order_by'),
    );
  });

  it('refuses a conditional upsert and leaves the points as they were', async () => {
    await expect(
      qdrantError(
        client.upsert('docs', {
          wait: true,
          points: [{ id: 1, vector: [1, 1], payload: { city: 'Rome' } }],
          update_filter: { must: [{ key: 'city', match: { value: 'Berlin' } }] },
        }),
      ),
    ).resolves.toEqual(refusal('conditional upsert (update_filter)'));
    await expect(client.retrieve('docs', { ids: [1] })).resolves.toEqual([
      expect.objectContaining({ id: 1, payload: { city: 'Berlin', rank: 2 } }),
    ]);
  });

  it('answers 404 for a route it does not serve', async () => {
    const response = await fetch(`${engine.url}/collections/docs/snapshots`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: { error: 'Not found: POST /collections/docs/snapshots' },
      time: expect.any(Number),
    });
  });
});
