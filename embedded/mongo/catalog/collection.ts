/**
 * A collection: its live documents keyed by canonical `_id`, its secondary indexes, and its append-only file.
 * Every mutation checks unique indexes first, then updates memory and indexes, then appends the record, so a
 * failed check changes nothing and an acknowledged change is in the file.
 */
import { serialize, UUID, type Document } from 'bson';
import { formatValue, idKey, pathValues } from '../bsonValues';
import { mongoError } from '../errors';
import { planQuery } from '../query/planner';
import type { CollectionFile } from '../storage/collectionFile';
import { encodeRecord, RecordType } from '../storage/records';
import { takeWireBytes } from '../wire/documentBytes';
import { compactInBackground } from './backgroundCompaction';
import { CollectionIndex, sameIndexKeys } from './collectionIndex';
import { ID_INDEX, type IndexSpec } from './indexSpec';

interface StoredDocument {
  doc: Document;
  /** Bytes of its Put record in the file, for garbage accounting. */
  size: number;
}

/**
 * When a collection file is rewritten from its live documents: once it is at least `minBytes` long and superseded
 * records make up more than `garbageRatio` of it. Checked after every write, so disk use tracks live data.
 */
/** Live data up to which a collection compacts at once (a few ms); above it, in the background. */
const BACKGROUND_COMPACTION_BYTES = 4 * 1024 * 1024;

export interface CompactionPolicy {
  minBytes: number;
  garbageRatio: number;
}

/** Defaults: 1 MiB and one half. */
export const DEFAULT_COMPACTION: CompactionPolicy = { minBytes: 1024 * 1024, garbageRatio: 0.5 };

/** How much work a query did: index entries and documents examined (`explain`'s totalKeys/DocsExamined). */
export interface ExaminedCounters {
  keys: number;
  docs: number;
}

/** The collection's catalog entry, persisted as the file's Meta record. */
export interface CollectionMeta {
  db: string;
  name: string;
  uuid: UUID;
  options: Document;
  indexes: IndexSpec[];
}

/** A live collection. */
export class Collection {
  readonly meta: CollectionMeta;
  readonly indexes = new Map<string, CollectionIndex>();
  private readonly docs = new Map<string, StoredDocument>();
  private readonly file: CollectionFile;
  private metaSize = 0;
  private liveBytes = 0;
  /** The background compaction in progress, if any. */
  private compacting: { abort(): void } | null = null;

  constructor(
    meta: CollectionMeta,
    file: CollectionFile,
    private readonly compaction: CompactionPolicy = DEFAULT_COMPACTION,
  ) {
    this.meta = meta;
    this.file = file;
    for (const spec of meta.indexes) this.indexes.set(spec.name, new CollectionIndex(spec));
  }

  get ns(): string {
    return `${this.meta.db}.${this.meta.name}`;
  }

  get count(): number {
    return this.docs.size;
  }

  /** Bytes on disk, and bytes that belong to superseded records. */
  get storage(): { fileBytes: number; garbageBytes: number } {
    return { fileBytes: this.file.size, garbageBytes: this.file.size - this.liveBytes - this.metaSize };
  }

  /** All index specs, `_id_` first, as `listIndexes` reports them. */
  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  /** Loads a document during recovery, without logging it. */
  restore(doc: Document, size: number): void {
    const id = idKey(doc._id);
    this.liveBytes += size - (this.docs.get(id)?.size ?? 0);
    this.docs.set(id, { doc, size });
  }

  /** Removes a document during recovery, without logging it. */
  restoreDelete(id: unknown): void {
    const key = idKey(id);
    this.liveBytes -= this.docs.get(key)?.size ?? 0;
    this.docs.delete(key);
  }

  /** Replaces the index set during recovery (a later Meta record); `rebuildIndexes` fills them. */
  setIndexSpecs(specs: IndexSpec[]): void {
    this.meta.indexes = specs;
    this.indexes.clear();
    for (const spec of specs) this.indexes.set(spec.name, new CollectionIndex(spec));
  }

  /** Builds every index from the loaded documents (after recovery). */
  rebuildIndexes(): void {
    for (const index of this.indexes.values()) {
      index.clear();
      for (const [id, { doc }] of this.docs) index.add(index.keysOf(doc), id);
    }
  }

  /** Writes the catalog entry as a Meta record. */
  writeMeta(): void {
    const record = encodeRecord(RecordType.Meta, serialize(this.meta));
    this.file.append(record);
    this.metaSize = record.length;
  }

  get(id: unknown): Document | undefined {
    return this.docs.get(idKey(id))?.doc;
  }

  /**
   * Candidate documents for `filter` (a superset of the matches), via the primary key, an index or a scan.
   * `counters`, when given, counts the index entries and documents examined (for `explain`).
   */
  *candidates(filter: Document, counters?: ExaminedCounters): Iterable<Document> {
    const plan = planQuery(filter, this.indexes.values());
    if (plan.kind === 'scan') {
      for (const stored of this.docs.values()) {
        if (counters) counters.docs++;
        yield stored.doc;
      }
      return;
    }
    for (const id of plan.ids) {
      if (counters) counters.keys++;
      const stored = this.docs.get(id);
      if (!stored) continue;
      if (counters) counters.docs++;
      yield stored.doc;
    }
  }

  /** The access path `candidates(filter)` takes: an index name, or undefined for a collection scan. */
  plannedIndex(filter: Document): string | undefined {
    const plan = planQuery(filter, this.indexes.values());
    return plan.kind === 'ids' ? plan.index : undefined;
  }

  /** All documents in natural (insertion) order. */
  *all(): Iterable<Document> {
    for (const stored of this.docs.values()) yield stored.doc;
  }

  /** Inserts a new document; throws DuplicateKey on `_id` or any unique index. */
  insert(doc: Document): void {
    const id = idKey(doc._id);
    if (this.docs.has(id)) throw this.duplicateId(doc._id);
    const keys = this.keysFor(doc, id);
    for (const [index, indexKeys] of keys) index.add(indexKeys, id);
    this.persist(id, doc);
  }

  /**
   * Replaces the stored document with the same `_id`; throws DuplicateKey on any unique index. Only indexes whose
   * keys changed are touched (an update of one field leaves the others' B+ tree entries where they are).
   */
  replace(previous: Document, doc: Document): void {
    const id = idKey(doc._id);
    const next = this.keysFor(doc, id);
    for (const [index, indexKeys] of next) {
      const before = index.keysOf(previous);
      if (sameIndexKeys(before, indexKeys)) continue;
      index.remove(before, id);
      index.add(indexKeys, id);
    }
    this.persist(id, doc);
  }

  /** Removes the document. */
  delete(doc: Document): void {
    const id = idKey(doc._id);
    const stored = this.docs.get(id);
    if (!stored) return;
    for (const index of this.indexes.values()) index.remove(index.keysOf(doc), id);
    this.docs.delete(id);
    this.liveBytes -= stored.size;
    this.file.append(encodeRecord(RecordType.Delete, serialize({ _id: doc._id })));
    this.compactIfNeeded();
  }

  /** Adds an index, building it from the current documents; throws DuplicateKey if a unique index cannot hold them. */
  addIndex(spec: IndexSpec): void {
    const index = new CollectionIndex(spec);
    for (const [id, { doc }] of this.docs) {
      const keys = index.keysOf(doc);
      index.assertUnique(keys, id, this.ns);
      index.add(keys, id);
    }
    this.indexes.set(spec.name, index);
    this.meta.indexes = [...this.indexes.values()].map((entry) => entry.spec);
    this.writeMeta();
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.meta.indexes = [...this.indexes.values()].map((entry) => entry.spec);
    this.writeMeta();
  }

  /**
   * Deletes documents a TTL index says have expired: those whose indexed date (the earliest, for an array)
   * is at or before `cutoff`. Returns how many were removed.
   */
  deleteExpired(index: CollectionIndex, cutoff: Date): number {
    const ids = new Set<string>();
    index.idsInRange({ upper: cutoff }, new Date(-8.64e15), ids);
    let removed = 0;
    for (const id of ids) {
      const stored = this.docs.get(id);
      if (!stored) continue;
      const dates = pathValues(stored.doc, index.fields[0]).values.filter((value) => value instanceof Date);
      if (!dates.some((date) => date.getTime() <= cutoff.getTime())) continue;
      this.delete(stored.doc);
      removed += 1;
    }
    return removed;
  }

  /**
   * Rewrites the file from live documents when the compaction policy says so (temp file, fsync, rename). Runs
   * after each write; the rewrite costs about the live size and happens only after at least as many bytes of
   * garbage were written, so its cost per write is bounded. Up to BACKGROUND_COMPACTION_BYTES of live data it runs
   * at once; a larger collection compacts in the background, in slices (backgroundCompaction.ts).
   */
  compactIfNeeded(): boolean {
    if (this.compacting) return false;
    const { fileBytes, garbageBytes } = this.storage;
    if (fileBytes < this.compaction.minBytes || garbageBytes <= fileBytes * this.compaction.garbageRatio)
      return false;
    const meta = encodeRecord(RecordType.Meta, serialize(this.meta));
    const recordOf = (id: string) => {
      const stored = this.docs.get(id);
      return stored && encodeRecord(RecordType.Put, serialize(stored.doc, { ignoreUndefined: true }));
    };
    if (this.liveBytes <= BACKGROUND_COMPACTION_BYTES) {
      this.file.rewrite([meta, ...[...this.docs.keys()].map((id) => recordOf(id)!)]);
      this.metaSize = meta.length;
      return true;
    }
    this.compacting = compactInBackground({
      file: this.file,
      meta,
      ids: [...this.docs.keys()],
      recordOf,
      done: (error) => {
        this.compacting = null;
        if (!error) this.metaSize = meta.length;
      },
    });
    return true;
  }

  syncInBackground(): void {
    this.file.syncInBackground();
  }

  sync(): void {
    this.file.sync();
  }

  close(): void {
    this.compacting?.abort();
    this.file.close();
  }

  /** Deletes the collection's file; the object must not be used afterwards. */
  destroy(): void {
    this.compacting?.abort();
    this.file.remove();
  }

  private keysFor(doc: Document, id: string): [CollectionIndex, unknown[][]][] {
    const keys: [CollectionIndex, unknown[][]][] = [];
    for (const index of this.indexes.values()) {
      const indexKeys = index.keysOf(doc);
      index.assertUnique(indexKeys, id, this.ns);
      keys.push([index, indexKeys]);
    }
    return keys;
  }

  private persist(id: string, doc: Document): void {
    const bytes = takeWireBytes(doc) ?? serialize(doc, { ignoreUndefined: true });
    const record = encodeRecord(RecordType.Put, bytes);
    this.liveBytes += record.length - (this.docs.get(id)?.size ?? 0);
    this.docs.set(id, { doc, size: record.length });
    this.file.append(record);
    this.compactIfNeeded();
  }

  private duplicateId(id: unknown): Error {
    return mongoError(
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.ns} index: _id_ dup key: ${formatValue({ _id: id })}`,
      { keyPattern: { _id: 1 }, keyValue: { _id: id } },
    );
  }
}
