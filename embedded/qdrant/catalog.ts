import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Collection } from './collection';
import type { CollectionConfig } from './collectionConfig';
import { collectionAlreadyExists, collectionNotFound } from './errors';
import { CollectionStore, type StoreOptions } from './storage/collectionStore';
import { lockDataDir } from '../dataDirLock';
import type { CollectionOp } from './storage/recordCodec';

/** Time slice the background indexer takes before yielding to requests. */
const INDEX_SLICE_MS = 15;

/**
 * The engine's collections: creation, lookup, deletion, the single write path (`commit`) and the background
 * HNSW indexer. Each collection is a directory under `<dir>/collections`; names starting with a dot are
 * leftovers of an interrupted create or delete.
 */
export class Catalog {
  private readonly stores = new Map<string, CollectionStore>();
  private indexer: NodeJS.Immediate | null = null;
  private closed = false;

  private constructor(
    private readonly root: string,
    private readonly options: StoreOptions,
    private readonly logger: Logger,
    private readonly unlock: () => void,
  ) {}

  /** Opens (creating if needed) the data directory and loads every collection in it. */
  static open(dir: string, options: StoreOptions, logger: Logger): Catalog {
    const root = path.join(dir, 'collections');
    fs.mkdirSync(root, { recursive: true });
    const catalog = new Catalog(root, options, logger, lockDataDir(dir));
    try {
      catalog.loadCollections();
    } catch (error) {
      catalog.close();
      throw error;
    }
    catalog.scheduleIndexing();
    return catalog;
  }

  private loadCollections(): void {
    const { root, options, logger } = this;
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith('.')) {
        // Leftovers of a create or delete interrupted by a crash.
        fs.rmSync(path.join(root, entry.name), { recursive: true, force: true });
        continue;
      }
      const started = performance.now();
      const store = CollectionStore.load(path.join(root, entry.name), options);
      this.stores.set(store.collection.name, store);
      logger.info(
        {
          collection: store.collection.name,
          points: store.collection.size,
          ms: Math.round(performance.now() - started),
        },
        'qdrant collection loaded',
      );
    }
  }

  names(): string[] {
    return [...this.stores.keys()];
  }

  has(name: string): boolean {
    return this.stores.has(name);
  }

  /** The collection, or Qdrant's 404 for an unknown name. */
  get(name: string): Collection {
    return this.store(name).collection;
  }

  create(name: string, config: CollectionConfig): void {
    if (this.stores.has(name)) throw collectionAlreadyExists(name);
    const store = CollectionStore.create(
      path.join(this.root, directoryName(name)),
      name,
      config,
      this.options,
    );
    this.stores.set(name, store);
  }

  /** Deletes a collection; returns false when it did not exist (Qdrant answers `result: false`). */
  delete(name: string): boolean {
    const store = this.stores.get(name);
    if (!store) return false;
    this.stores.delete(name);
    store.close();
    store.destroy();
    return true;
  }

  /** The single write path: log, apply, then let the background indexer catch up. Returns the sequence. */
  commit(name: string, op: CollectionOp): number {
    const store = this.store(name);
    const seq = store.commit(op);
    if (store.wantsCompaction) this.snapshotInBackground(store, 'compaction');
    this.scheduleIndexing();
    return seq;
  }

  /** True while some collection has vectors waiting for its HNSW graph. */
  get indexing(): boolean {
    return [...this.stores.values()].some((store) => isIndexing(store.collection));
  }

  /** Stops indexing, snapshots every collection and closes its files. */
  close(): void {
    this.closed = true;
    if (this.indexer) clearImmediate(this.indexer);
    try {
      for (const store of this.stores.values()) store.close();
    } finally {
      this.stores.clear();
      this.unlock();
    }
  }

  private store(name: string): CollectionStore {
    const store = this.stores.get(name);
    if (!store) throw collectionNotFound(name);
    return store;
  }

  private scheduleIndexing(): void {
    if (this.indexer || this.closed || !this.indexing) return;
    this.indexer = setImmediate(() => {
      this.indexer = null;
      this.indexSlice();
      this.scheduleIndexing();
    });
  }

  private indexSlice(): void {
    for (const store of this.stores.values()) {
      const { collection } = store;
      if (!isIndexing(collection)) continue;
      for (const index of collection.vectors.values()) index.indexStep(INDEX_SLICE_MS);
      if (!isIndexing(collection) && store.graphsUnsaved) {
        // Persist the freshly built graph so a restart loads it instead of rebuilding.
        this.snapshotInBackground(store, 'HNSW index built');
        this.logger.info({ collection: collection.name, points: collection.size }, 'qdrant HNSW index built');
      }
      return;
    }
  }

  /** Writes a collection's snapshot without holding the loop; a failure is logged (the log still holds it all). */
  private snapshotInBackground(store: CollectionStore, reason: string): void {
    const started = performance.now();
    store.snapshotInBackground().then(
      () => {
        const ms = Math.round(performance.now() - started);
        this.logger.debug({ collection: store.collection.name, reason, ms }, 'qdrant snapshot written');
      },
      (error: unknown) => {
        this.logger.error(
          { err: error, collection: store.collection.name, reason },
          'qdrant snapshot failed',
        );
      },
    );
  }
}

/** A collection's directory: its URI-encoded name, with a leading dot escaped (dot names are scratch space). */
function directoryName(name: string): string {
  const encoded = encodeURIComponent(name);
  return encoded.startsWith('.') ? `%2E${encoded.slice(1)}` : encoded;
}

function isIndexing(collection: Collection): boolean {
  return [...collection.vectors.values()].some((index) => index.needsIndexing);
}
