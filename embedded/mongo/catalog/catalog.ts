/**
 * The catalog of databases and collections, and their layout on disk: `<dir>/<db>/<collection>.coll`, names
 * percent-encoded. A database exists while it has collections. `load` recovers every collection file, dropping a
 * torn or corrupt tail, and rebuilds indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deserialize, UUID, type Document } from 'bson';
import type { Logger } from 'pino';
import { mongoError } from '../errors';
import { bsonReadOptions } from '../wire/codec';
import { CollectionFile } from '../storage/collectionFile';
import { RecordType } from '../storage/records';
import { Collection, DEFAULT_COMPACTION, type CollectionMeta, type CompactionPolicy } from './collection';

const FILE_SUFFIX = '.coll';
const INVALID_COLLECTION = /[$\0]/;
const INVALID_DATABASE = /[/\\. "$*<>:|?\0]/;

function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/\*/g, '%2A');
}

/** Validates a database name as MongoDB does (InvalidNamespace 73). */
export function assertDatabaseName(db: string): void {
  if (!db || INVALID_DATABASE.test(db) || db.length > 63)
    throw mongoError('InvalidNamespace', `Invalid database name: '${db}'`);
}

/** Validates a collection name as MongoDB does (InvalidNamespace 73). */
export function assertCollectionName(db: string, name: unknown): asserts name is string {
  if (typeof name !== 'string' || !name || INVALID_COLLECTION.test(name) || name.startsWith('system.')) {
    throw mongoError('InvalidNamespace', `Invalid namespace specified '${db}.${String(name)}'`);
  }
}

/** All databases and collections the engine holds. */
export class Catalog {
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly compaction: CompactionPolicy;
  private readonly databases = new Map<string, Map<string, Collection>>();

  constructor(dir: string, logger: Logger, compaction: CompactionPolicy = DEFAULT_COMPACTION) {
    this.dir = dir;
    this.logger = logger;
    this.compaction = compaction;
  }

  /** Recovers every collection under the data directory. */
  load(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    for (const dbEntry of fs.readdirSync(this.dir, { withFileTypes: true })) {
      if (!dbEntry.isDirectory()) continue;
      const dbDir = path.join(this.dir, dbEntry.name);
      for (const file of fs.readdirSync(dbDir)) {
        if (file.endsWith('.compact')) fs.rmSync(path.join(dbDir, file), { force: true });
        else if (file.endsWith(FILE_SUFFIX)) this.recover(path.join(dbDir, file));
      }
    }
  }

  private recover(filePath: string): void {
    const { file, records, droppedBytes } = CollectionFile.open(filePath);
    if (droppedBytes > 0) {
      this.logger.warn(
        { file: filePath, droppedBytes },
        'dropped a torn or corrupt record at the end of a collection file',
      );
    }
    const metaRecord = records.find((record) => record.type === RecordType.Meta);
    if (!metaRecord) {
      this.logger.warn({ file: filePath }, 'collection file has no catalog entry; ignoring it');
      file.close();
      return;
    }
    let collection: Collection | undefined;
    for (const record of records) {
      const body = deserialize(record.payload, bsonReadOptions);
      if (record.type === RecordType.Meta) {
        const meta = body as CollectionMeta;
        if (!collection) collection = new Collection(meta, file, this.compaction);
        else collection.setIndexSpecs(meta.indexes);
      } else if (record.type === RecordType.Put) collection?.restore(body, record.size);
      else collection?.restoreDelete(body._id);
    }
    if (!collection) return;
    collection.rebuildIndexes();
    this.databaseOf(collection.meta.db, true).set(collection.meta.name, collection);
  }

  private databaseOf(db: string, create: boolean): Map<string, Collection> {
    let collections = this.databases.get(db);
    if (!collections && create) {
      collections = new Map();
      this.databases.set(db, collections);
    }
    return collections ?? new Map();
  }

  /** The collection, or undefined when it does not exist. */
  get(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  /** The collection, created (implicitly, as inserts and upserts do) when missing. */
  getOrCreate(
    db: string,
    name: string,
    options: Document = {},
  ): { collection: Collection; created: boolean } {
    const existing = this.get(db, name);
    if (existing) return { collection: existing, created: false };
    return { collection: this.create(db, name, options), created: true };
  }

  /** Creates a collection; throws NamespaceExists when it already exists. */
  create(db: string, name: string, options: Document = {}): Collection {
    assertDatabaseName(db);
    assertCollectionName(db, name);
    if (this.get(db, name)) throw mongoError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    const file = CollectionFile.create(
      path.join(this.dir, encodeName(db), `${encodeName(name)}${FILE_SUFFIX}`),
    );
    const collection = new Collection(
      { db, name, uuid: new UUID(), options, indexes: [] },
      file,
      this.compaction,
    );
    collection.writeMeta();
    this.databaseOf(db, true).set(name, collection);
    return collection;
  }

  /** Drops a collection; returns false when it did not exist. */
  drop(db: string, name: string): boolean {
    const collections = this.databases.get(db);
    const collection = collections?.get(name);
    if (!collections || !collection) return false;
    collection.destroy();
    collections.delete(name);
    if (collections.size === 0) this.dropDatabase(db);
    return true;
  }

  /** Drops every collection of a database and its directory. */
  dropDatabase(db: string): void {
    const collections = this.databases.get(db);
    for (const collection of collections?.values() ?? []) collection.destroy();
    this.databases.delete(db);
    fs.rmSync(path.join(this.dir, encodeName(db)), { recursive: true, force: true });
  }

  databaseNames(): string[] {
    return [...this.databases.keys()];
  }

  collections(db: string): Collection[] {
    return [...(this.databases.get(db)?.values() ?? [])];
  }

  allCollections(): Collection[] {
    return [...this.databases.values()].flatMap((collections) => [...collections.values()]);
  }

  /** Starts a non-blocking flush of every written collection file (the periodic durability tick). */
  syncAllInBackground(): void {
    for (const collection of this.allCollections()) collection.syncInBackground();
  }

  /** Flushes every collection file to stable storage (blocking: `j: true` writes and the `fsync` command). */
  syncAll(): void {
    for (const collection of this.allCollections()) collection.sync();
  }

  close(): void {
    for (const collection of this.allCollections()) collection.close();
    this.databases.clear();
  }
}
