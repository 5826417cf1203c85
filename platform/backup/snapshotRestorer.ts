import { EJSON } from 'bson';
import type { Document, IndexDescription } from 'mongodb';
import { LEASE_COLLECTION } from './backupGate';
import { readManifest, readRecords, recordsFile, type SnapshotManifest } from './snapshotFormat';
import type { SnapshotStores } from './snapshotWriter';

const MONGO_BATCH = 1_000;
const QDRANT_BATCH = 256;

/** What a restore refused to overwrite: the target already holds data. */
export class RestoreTargetNotEmptyError extends Error {
  constructor(readonly occupied: string[]) {
    super(`Refusing to restore over existing data: ${occupied.join(', ')}. Restore into empty stores.`);
  }
}

/** The collections of the target that already hold something (MongoDB documents, any Qdrant collection). */
async function occupiedCollections(stores: SnapshotStores): Promise<string[]> {
  const occupied: string[] = [];
  for (const { name } of await stores.mongo.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('system.') || name === LEASE_COLLECTION) continue;
    if ((await stores.mongo.collection(name).estimatedDocumentCount()) > 0) occupied.push(`mongo:${name}`);
  }
  const { collections } = await stores.qdrant.getCollections();
  occupied.push(...collections.map(({ name }) => `qdrant:${name}`));
  return occupied;
}

async function restoreMongo(stores: SnapshotStores, dir: string, manifest: SnapshotManifest): Promise<void> {
  for (const entry of manifest.mongo.collections) {
    const collection = stores.mongo.collection(entry.name);
    await readRecords(recordsFile(dir, 'mongo', entry.name), MONGO_BATCH, async (lines) => {
      const documents = lines.map((line) => EJSON.parse(line, { relaxed: false }) as Document);
      await collection.insertMany(documents, { ordered: true });
    });
    if (entry.indexes.length > 0) {
      await collection.createIndexes(entry.indexes as unknown as IndexDescription[]);
    } else if (entry.documents === 0) {
      await stores.mongo.createCollection(entry.name).catch((error: { codeName?: string }) => {
        if (error.codeName !== 'NamespaceExists') throw error;
      });
    }
  }
}

async function restoreQdrant(stores: SnapshotStores, dir: string, manifest: SnapshotManifest): Promise<void> {
  for (const entry of manifest.qdrant.collections) {
    await stores.qdrant.createCollection(entry.name, entry.create as never);
    for (const [field, schema] of Object.entries(entry.payloadIndexes)) {
      await stores.qdrant.createPayloadIndex(entry.name, {
        field_name: field,
        field_schema: schema as never,
        wait: true,
      });
    }
    await readRecords(recordsFile(dir, 'qdrant', entry.name), QDRANT_BATCH, async (lines) => {
      await stores.qdrant.upsert(entry.name, { wait: true, points: lines.map((line) => JSON.parse(line)) });
    });
  }
}

/**
 * Restores the snapshot in `dir` into empty stores (a fresh DATA_DIR for the embedded engines, or empty servers):
 * MongoDB documents and indexes, then Qdrant collections, payload indexes and points. Refuses with
 * `RestoreTargetNotEmptyError`, changing nothing, when the target already holds data.
 */
export async function restoreSnapshot(stores: SnapshotStores, dir: string): Promise<SnapshotManifest> {
  const manifest = await readManifest(dir);
  const occupied = await occupiedCollections(stores);
  if (occupied.length > 0) throw new RestoreTargetNotEmptyError(occupied);
  await restoreMongo(stores, dir, manifest);
  await restoreQdrant(stores, dir, manifest);
  return manifest;
}
