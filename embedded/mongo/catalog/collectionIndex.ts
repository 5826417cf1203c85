/**
 * One secondary index: a B+ tree (sorted-btree) from key tuples, in MongoDB's BSON order, to the ids of the
 * documents holding that key. Serves equality lookups on any key prefix, range scans on the first field, and
 * duplicate-key checks for unique indexes.
 */
import BTree from 'sorted-btree';
import { MaxKey, MinKey, type Document } from 'bson';
import { compareBson, formatValue, typeRank } from '../bsonValues';
import { mongoError } from '../errors';
import { IndexKeyExtractor, isUnmaintained, type IndexSpec } from './indexSpec';

type IndexKey = unknown[];
/** One id, or a set once several documents share a key (most keys belong to one document). */
type Postings = string | Set<string>;

function compareKeys(a: IndexKey, b: IndexKey): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    // Two strings (the commonest key), two numbers or two dates compare as compareBson would compare them,
    // without its type dispatch.
    let order: number;
    if (typeof x === 'string' && typeof y === 'string') order = x < y ? -1 : x > y ? 1 : 0;
    else if (typeof x === 'number' && typeof y === 'number') order = x < y ? -1 : x > y ? 1 : 0;
    else if (x instanceof Date && y instanceof Date) {
      const difference = x.getTime() - y.getTime();
      order = difference < 0 ? -1 : difference > 0 ? 1 : 0;
    } else order = compareBson(x, y);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** Whether two key lists are the same keys in the same order (an update that leaves an index's keys alone). */
export function sameIndexKeys(a: IndexKey[], b: IndexKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (compareKeys(a[i], b[i]) !== 0) return false;
  return true;
}

/** Bounds on the first indexed field; either side may be open. */
export interface FirstFieldRange {
  lower?: unknown;
  upper?: unknown;
}

/** A maintained secondary index. */
export class CollectionIndex {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly unique: boolean;
  /** False for text indexes, which the engine lists but does not maintain. */
  readonly maintained: boolean;
  /** Sparse and partial indexes omit documents, so they cannot answer a query on their own. */
  readonly complete: boolean;
  private readonly extractor: IndexKeyExtractor;
  private readonly tree = new BTree<IndexKey, Postings>(undefined, compareKeys);

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.extractor = new IndexKeyExtractor(spec);
    this.fields = this.extractor.fields;
    this.unique = Boolean(spec.unique);
    this.maintained = !isUnmaintained(spec);
    this.complete = !spec.sparse && !spec.partialFilterExpression;
  }

  /** The keys `doc` has in this index (empty when the index skips it). */
  keysOf(doc: Document): IndexKey[] {
    if (!this.maintained) return [];
    return this.extractor.keys(doc) ?? [];
  }

  /** Throws DuplicateKey when a unique index already holds one of `keys` for a document other than `id`. */
  assertUnique(keys: IndexKey[], id: string, ns: string): void {
    if (!this.unique) return;
    for (const key of keys) {
      const holder = this.tree.get(key);
      if (holder === undefined) continue;
      if (holder === id || (typeof holder !== 'string' && holder.size === 1 && holder.has(id))) continue;
      const keyValue: Document = {};
      this.fields.forEach((field, i) => (keyValue[field] = key[i]));
      throw mongoError(
        'DuplicateKey',
        `E11000 duplicate key error collection: ${ns} index: ${this.spec.name} dup key: ${formatValue(keyValue)}`,
        { keyPattern: this.spec.key, keyValue },
      );
    }
  }

  add(keys: IndexKey[], id: string): void {
    for (const key of keys) {
      // A new key (the usual case) costs one descent of the tree instead of a lookup and an insert.
      if (this.tree.setIfNotPresent(key, id)) continue;
      const holder = this.tree.get(key) as Postings;
      if (typeof holder !== 'string') holder.add(id);
      else if (holder !== id) this.tree.set(key, new Set([holder, id]));
    }
  }

  remove(keys: IndexKey[], id: string): void {
    for (const key of keys) {
      const holder = this.tree.get(key);
      if (holder === id) this.tree.delete(key);
      else if (holder !== undefined && typeof holder !== 'string') {
        holder.delete(id);
        if (holder.size === 0) this.tree.delete(key);
      }
    }
  }

  /** Ids of documents whose leading key fields equal `prefix` (one value per field). */
  idsWithPrefix(prefix: unknown[], out: Set<string>): void {
    if (prefix.length === this.fields.length) {
      addPostings(this.tree.get(prefix), out);
      return;
    }
    const low = [...prefix, new MinKey()];
    const high = [...prefix, new MaxKey()];
    this.tree.forRange(low, high, true, (_key, postings) => addPostings(postings, out));
  }

  /**
   * Ids of documents whose first field lies within `range`, staying inside the bound's BSON type as MongoDB's
   * comparison operators do. `typeFloor` is the smallest value of that type, used when only an upper bound is
   * given.
   */
  idsInRange(range: FirstFieldRange, typeFloor: unknown, out: Set<string>): void {
    const bound = range.lower !== undefined ? range.lower : range.upper;
    const rank = typeRank(bound);
    const start: IndexKey = [range.lower !== undefined ? range.lower : typeFloor];
    for (const [key, postings] of this.tree.entries(start)) {
      const first = key[0];
      if (typeRank(first) !== rank) break;
      if (range.upper !== undefined && compareBson(first, range.upper) > 0) break;
      addPostings(postings, out);
    }
  }

  clear(): void {
    this.tree.clear();
  }
}

function addPostings(postings: Postings | undefined, out: Set<string>): void {
  if (postings === undefined) return;
  if (typeof postings === 'string') out.add(postings);
  else for (const id of postings) out.add(id);
}
