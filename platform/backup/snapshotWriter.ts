import fs from 'node:fs/promises';
import path from 'node:path';
import { EJSON } from 'bson';
import type { Db } from 'mongodb';
import type { QdrantClient } from '@qdrant/js-client-rest';
import { LEASE_COLLECTION } from './backupGate';
import {
  RecordsWriter,
  SNAPSHOT_FORMAT,
  recordsFile,
  type MongoCollectionEntry,
  type QdrantCollectionEntry,
  type SnapshotManifest,
} from './snapshotFormat';

/** The stores a snapshot reads: the platform's MongoDB database and its Qdrant. */
export interface SnapshotStores {
  mongo: Db;
  qdrant: QdrantClient;
}

const QDRANT_PAGE = 256;
/** Index spec fields MongoDB reports that `createIndexes` does not take back. */
const INDEX_NOISE = new Set(['v', 'ns']);

/** Collections whose contents are transient and never restored: the backup gate's leases. */
const TRANSIENT_COLLECTIONS = new Set([LEASE_COLLECTION]);

/** Every user collection of the database (views, `system.*` and transient ones left out), by name. */
async function mongoCollections(db: Db): Promise<string[]> {
  const listed = await db.listCollections({}, { nameOnly: false }).toArray();
  return listed
    .filter((entry) => (entry.type ?? 'collection') === 'collection')
    .filter((entry) => !entry.name.startsWith('system.') && !TRANSIENT_COLLECTIONS.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

async function dumpMongoCollection(db: Db, name: string, dir: string): Promise<MongoCollectionEntry> {
  const writer = new RecordsWriter(recordsFile(dir, 'mongo', name));
  for await (const document of db.collection(name).find({}, { sort: { _id: 1 } })) {
    await writer.add(EJSON.stringify(document, { relaxed: false }));
  }
  await writer.finish();
  const indexes = (await db.collection(name).listIndexes().toArray())
    .filter((index) => index.name !== '_id_')
    .map((index) => Object.fromEntries(Object.entries(index).filter(([key]) => !INDEX_NOISE.has(key))));
  return { name, documents: writer.count, indexes };
}

/** The `createCollection` body and payload indexes that recreate a Qdrant collection as it is. */
async function qdrantLayout(client: QdrantClient, name: string) {
  const info = await client.getCollection(name);
  const config = info.config as unknown as {
    params: { vectors: unknown; on_disk_payload?: boolean };
    hnsw_config?: {
      m?: number;
      ef_construct?: number;
      full_scan_threshold?: number;
      payload_m?: number | null;
    };
    optimizer_config?: { indexing_threshold?: number | null };
    metadata?: Record<string, unknown>;
  };
  const hnsw = config.hnsw_config ?? {};
  const create: Record<string, unknown> = {
    vectors: config.params.vectors,
    hnsw_config: {
      m: hnsw.m,
      ef_construct: hnsw.ef_construct,
      full_scan_threshold: hnsw.full_scan_threshold,
      ...(hnsw.payload_m != null ? { payload_m: hnsw.payload_m } : {}),
    },
    ...(config.optimizer_config?.indexing_threshold != null
      ? { optimizers_config: { indexing_threshold: config.optimizer_config.indexing_threshold } }
      : {}),
    ...(config.params.on_disk_payload !== undefined
      ? { on_disk_payload: config.params.on_disk_payload }
      : {}),
    ...(config.metadata ? { metadata: config.metadata } : {}),
  };
  const payloadIndexes = Object.fromEntries(
    Object.entries(info.payload_schema ?? {}).map(([field, schema]) => {
      const { data_type: type, params } = schema as { data_type: string; params?: Record<string, unknown> };
      return [field, params ? { ...params, type } : type];
    }),
  );
  return { create, payloadIndexes };
}

async function dumpQdrantCollection(
  client: QdrantClient,
  name: string,
  dir: string,
): Promise<QdrantCollectionEntry> {
  const layout = await qdrantLayout(client, name);
  const writer = new RecordsWriter(recordsFile(dir, 'qdrant', name));
  let offset: string | number | undefined;
  do {
    const page = await client.scroll(name, {
      limit: QDRANT_PAGE,
      offset,
      with_payload: true,
      with_vector: true,
    });
    for (const point of page.points) {
      await writer.add(JSON.stringify({ id: point.id, vector: point.vector, payload: point.payload ?? {} }));
    }
    offset = (page.next_page_offset ?? undefined) as string | number | undefined;
  } while (offset !== undefined);
  await writer.finish();
  return { name, points: writer.count, ...layout };
}

/**
 * Writes a snapshot of every MongoDB collection of the platform's database (documents as canonical Extended JSON,
 * index specs) and every Qdrant collection (layout, payload indexes, points with vectors) into `dir`, which must
 * not exist, and writes `manifest.json` last. Reads through the ordinary drivers, so it works the same against the
 * embedded engines and real servers. Every write acknowledged before it starts is in the snapshot; writes made
 * while it runs may or may not be (it is not a point-in-time copy across collections).
 */
export async function writeSnapshot(
  stores: SnapshotStores,
  dir: string,
  meta: { id: string; startedAt: Date; now: () => Date },
): Promise<SnapshotManifest> {
  await fs.mkdir(path.join(dir, 'mongo'), { recursive: true });
  await fs.mkdir(path.join(dir, 'qdrant'), { recursive: true });
  const mongo: MongoCollectionEntry[] = [];
  for (const name of await mongoCollections(stores.mongo)) {
    mongo.push(await dumpMongoCollection(stores.mongo, name, dir));
  }
  const qdrant: QdrantCollectionEntry[] = [];
  const { collections } = await stores.qdrant.getCollections();
  for (const { name } of [...collections].sort((a, b) => a.name.localeCompare(b.name))) {
    qdrant.push(await dumpQdrantCollection(stores.qdrant, name, dir));
  }
  const manifest: SnapshotManifest = {
    format: SNAPSHOT_FORMAT,
    id: meta.id,
    startedAt: meta.startedAt.toISOString(),
    finishedAt: meta.now().toISOString(),
    mongo: { database: stores.mongo.databaseName, collections: mongo },
    qdrant: { collections: qdrant },
  };
  await fs.writeFile(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
