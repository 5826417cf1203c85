import type { QdrantClient } from '@qdrant/js-client-rest';
import type { VectorSpace } from '../../../ai/retrieval/vectorIndex';

/** Points copied per request when a collection moves to a new version. */
const COPY_BATCH = 256;

/** Version of a memory collection name: `<base>` is 1, `<base>_v<n>` is n; null for another collection. */
function versionOf(name: string, base: string): number | null {
  if (name === base) return 1;
  const match = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}_v(\\d+)$`).exec(name);
  return match ? Number(match[1]) : null;
}

async function create(client: QdrantClient, name: string, spaces: readonly VectorSpace[]): Promise<void> {
  const vectors = Object.fromEntries(
    spaces.map((space) => [space.model, { size: space.dimensions, distance: 'Cosine' as const }]),
  );
  await client.createCollection(name, { vectors, hnsw_config: { m: 0, payload_m: 16 } });
  await client.createPayloadIndex(name, {
    field_name: 'subject',
    field_schema: { type: 'keyword', is_tenant: true },
    wait: true,
  });
}

/** Copies every point of `from` into `to` (an upsert: copying twice is harmless). */
async function copyPoints(client: QdrantClient, from: string, to: string): Promise<void> {
  let offset: string | number | undefined | null;
  do {
    const page = await client.scroll(from, {
      limit: COPY_BATCH,
      offset: offset ?? undefined,
      with_payload: true,
      with_vector: true,
    });
    if (page.points.length > 0) {
      await client.upsert(to, {
        wait: true,
        points: page.points.map((p) => ({
          id: p.id,
          vector: p.vector as Record<string, number[]>,
          payload: p.payload ?? {},
        })),
      });
    }
    offset = page.next_page_offset as string | number | null | undefined;
  } while (offset !== null && offset !== undefined);
}

/**
 * Finds or creates the memory collection holding a named vector for every space, and answers its name and spaces.
 * Qdrant fixes a collection's named vectors at creation, so a newly configured space (the sentence encoder's) means a
 * new version `<base>_v<n+1>` with the old spaces and the new one, every point copied over, and only then the old
 * version dropped. An older version found beside the newest at start-up is an interrupted move, finished the same
 * way. The memories' vectors in the new space are then written by the background re-embedding (memoryReembedding.ts).
 */
export async function openMemoryCollection(
  client: QdrantClient,
  base: string,
  spaces: readonly VectorSpace[],
): Promise<{ name: string; spaces: string[] }> {
  const { collections } = await client.getCollections();
  const versions = collections
    .map((c) => ({ name: c.name, version: versionOf(c.name, base) }))
    .filter((c): c is { name: string; version: number } => c.version !== null)
    .sort((a, b) => a.version - b.version);
  if (versions.length === 0) {
    await create(client, base, spaces);
    return { name: base, spaces: spaces.map((s) => s.model) };
  }
  let newest = versions[versions.length - 1];
  const info = await client.getCollection(newest.name);
  const stored = (info.config.params.vectors ?? {}) as Record<string, { size: number }>;
  const missing = spaces.filter((space) => !(space.model in stored));
  if (missing.length > 0) {
    const next = { name: `${base}_v${newest.version + 1}`, version: newest.version + 1 };
    const all = [
      ...Object.entries(stored).map(([model, params]) => ({ model, dimensions: params.size })),
      ...missing,
    ];
    await create(client, next.name, all);
    versions.push(next);
    newest = next;
  }
  for (const older of versions.slice(0, -1)) {
    await copyPoints(client, older.name, newest.name);
    await client.deleteCollection(older.name);
  }
  const final = await client.getCollection(newest.name);
  return { name: newest.name, spaces: Object.keys((final.config.params.vectors ?? {}) as object) };
}
