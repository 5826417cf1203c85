import type { QdrantClient } from '@qdrant/js-client-rest';
import pino, { type Logger } from 'pino';
import { ConflictError } from '../../platform/errors';
import type { VectorSpace } from './vectorIndex';

/** Payload fields of a chunk vector; each has a keyword index so filters on it are index lookups. */
export const CHUNK_PAYLOAD_FIELDS = ['chunkId', 'documentId', 'index', 'model'] as const;

const PAGE = 256;

/** The named vectors (model → dimensions) of a collection, or undefined when it is not a named-vector one. */
async function namedSpaces(client: QdrantClient, name: string): Promise<Map<string, number> | undefined> {
  const info = await client.getCollection(name);
  const vectors = info.config.params.vectors as Record<string, unknown> | undefined;
  if (!vectors || 'size' in vectors) return undefined;
  return new Map(
    Object.entries(vectors).map(([model, params]) => [model, (params as { size: number }).size]),
  );
}

/** The collections named `<prefix>_v<n>`, highest version first. */
async function versions(client: QdrantClient, prefix: string): Promise<{ name: string; version: number }[]> {
  const pattern = new RegExp(`^${prefix}_v(\\d+)$`);
  const { collections } = await client.getCollections();
  return collections
    .flatMap((c) => {
      const match = pattern.exec(c.name);
      return match ? [{ name: c.name, version: Number(match[1]) }] : [];
    })
    .sort((a, b) => b.version - a.version);
}

async function create(client: QdrantClient, name: string, spaces: Map<string, number>): Promise<void> {
  const vectors = Object.fromEntries(
    [...spaces].map(([model, size]) => [model, { size, distance: 'Cosine' as const }]),
  );
  await client.createCollection(name, { vectors });
}

async function ensurePayloadIndexes(client: QdrantClient, name: string): Promise<void> {
  for (const field of CHUNK_PAYLOAD_FIELDS) {
    await client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true });
  }
}

/** Copies every point (vectors and payload) from one collection to another, a page at a time. */
async function copyPoints(client: QdrantClient, from: string, to: string): Promise<number> {
  let offset: string | number | undefined;
  let copied = 0;
  do {
    const page = await client.scroll(from, { limit: PAGE, offset, with_payload: true, with_vector: true });
    if (page.points.length > 0) {
      const points = page.points.map((p) => ({
        id: p.id,
        vector: p.vector as Record<string, number[]>,
        payload: p.payload ?? {},
      }));
      await client.upsert(to, { wait: true, points });
      copied += points.length;
    }
    offset = (page.next_page_offset ?? undefined) as string | number | undefined;
  } while (offset !== undefined && offset !== null);
  return copied;
}

/**
 * Opens the brain's chunk collection: `<prefix>_v<n>` with one named Cosine vector per embedding model and
 * keyword indexes on the payload fields. Creates `_v1` when none exists. Qdrant fixes a collection's named
 * vectors at creation, so when the configuration adds a model the collection lacks, `_v<n+1>` is created
 * with every old and new space, the points are copied over, and only then is the old version dropped; a
 * start-up that finds an older version beside the newest finishes such an interrupted move (upserts are
 * idempotent). A model whose dimensions differ from its stored space stops start-up (409
 * BRAIN_VECTOR_SPACE_MISMATCH): its vectors would be incomparable.
 */
export async function openChunkCollection(
  client: QdrantClient,
  prefix: string,
  wanted: readonly VectorSpace[],
  logger: Logger = pino({ level: 'silent' }),
): Promise<{ name: string; spaces: Map<string, number> }> {
  const [current, ...older] = await versions(client, prefix);
  if (current && older.length > 0) await moveAndDrop(client, older, current.name, logger);
  const stored = current
    ? ((await namedSpaces(client, current.name)) ?? new Map<string, number>())
    : undefined;
  for (const space of wanted) {
    const size = stored?.get(space.model);
    if (size !== undefined && size !== space.dimensions) {
      throw new ConflictError(
        `Vector space ${space.model} is stored with ${size} dimensions, but its provider is configured with ${space.dimensions}`,
        'BRAIN_VECTOR_SPACE_MISMATCH',
      );
    }
  }
  const spaces = new Map(stored);
  for (const space of wanted) spaces.set(space.model, space.dimensions);
  if (current && stored && spaces.size === stored.size) {
    await ensurePayloadIndexes(client, current.name);
    return { name: current.name, spaces };
  }
  const name = `${prefix}_v${(current?.version ?? 0) + 1}`;
  await create(client, name, spaces);
  await ensurePayloadIndexes(client, name);
  if (current) await moveAndDrop(client, [current], name, logger);
  return { name, spaces };
}

/** Copies the newest of `sources` into `target`, then drops every source collection. */
async function moveAndDrop(
  client: QdrantClient,
  sources: { name: string }[],
  target: string,
  logger: Logger,
): Promise<void> {
  const copied = await copyPoints(client, sources[0].name, target);
  for (const source of sources) await client.deleteCollection(source.name);
  logger.info(
    { from: sources[0].name, to: target, copied },
    'brain vectors moved to a collection with new spaces',
  );
}
