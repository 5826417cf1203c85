import type { Collection, Document } from 'mongodb';
import type { Model } from 'mongoose';
import { GroupCommit } from './groupCommit';

/**
 * The driver's collection under a mongoose model, typed by its record, for the hot paths that skip mongoose's
 * query building, casting and hydration (a money operation makes several store calls per request). Nothing is cast
 * or defaulted there: the caller writes complete, correctly typed values (timestamps included).
 */
export function nativeCollection<T extends Document>(model: Model<T>): Collection<T> {
  return model.collection as unknown as Collection<T>;
}

const DUPLICATE_KEY = 11000;

/** True when `error` is MongoDB's duplicate-key error (a unique index already holds the value). */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DUPLICATE_KEY;
}

/** What `insertOrFind` answers: the stored document and whether this call created it. */
export interface Inserted<T> {
  stored: T;
  created: boolean;
}

type Keyed = Document & { _id: string };

const inserts = new WeakMap<Collection<Keyed>, GroupCommit<Keyed, Inserted<Keyed>>>();
const conditionalSets = new WeakMap<Collection<Keyed>, GroupCommit<ConditionalSet, boolean>>();

/**
 * Inserts `doc` unless a document with its `_id` exists; answers the stored document and whether this call created
 * it (an idempotency record: the first writer wins, every later one reads what the first wrote). Concurrent calls on
 * one collection share an `insertMany` (group commit).
 */
export function insertOrFind<T extends Keyed>(collection: Collection<T>, doc: T): Promise<Inserted<T>> {
  const rows = collection as unknown as Collection<Keyed>;
  let group = inserts.get(rows);
  if (!group) {
    group = new GroupCommit((docs) => insertAll(rows, docs));
    inserts.set(rows, group);
  }
  return group.submit(doc) as Promise<Inserted<T>>;
}

async function insertAll(collection: Collection<Keyed>, docs: Keyed[]): Promise<Inserted<Keyed>[]> {
  const existing = new Set<number>();
  try {
    await collection.insertMany(docs, { ordered: false, ignoreUndefined: true });
  } catch (error) {
    const failures = [(error as { writeErrors?: unknown }).writeErrors ?? []].flat() as {
      index: number;
      code?: number;
    }[];
    if (failures.length === 0 || !failures.every(isDuplicateKey)) throw error;
    for (const failure of failures) existing.add(failure.index);
  }
  if (existing.size === 0) return docs.map((stored) => ({ stored, created: true }));
  const ids = [...existing].map((index) => docs[index]._id);
  const found = new Map(
    (await collection.find({ _id: { $in: ids } }).toArray()).map((doc) => [doc._id, doc]),
  );
  return docs.map((doc, index) => {
    if (!existing.has(index)) return { stored: doc, created: true };
    const stored = found.get(doc._id);
    if (!stored) throw new Error(`${collection.collectionName} ${doc._id} vanished`);
    return { stored, created: false };
  });
}

/** One conditional update: `$set` of `set` on the document `filter` matches. */
export interface ConditionalSet {
  filter: Document;
  set: Document;
}

/**
 * Applies `update` and answers true when it changed a document; concurrent calls on one collection share a
 * `bulkWrite`, and when any of that batch matched nothing, every caller is answered false (it then reads its
 * document: a false answer is always safe, a true one always exact).
 */
export function setIfMatches<T extends Keyed>(
  collection: Collection<T>,
  update: ConditionalSet,
): Promise<boolean> {
  const rows = collection as unknown as Collection<Keyed>;
  let group = conditionalSets.get(rows);
  if (!group) {
    group = new GroupCommit(async (updates) => {
      const written = await rows.bulkWrite(
        updates.map(({ filter, set }) => ({ updateOne: { filter, update: { $set: set } } })),
        { ordered: false },
      );
      return updates.map(() => written.modifiedCount === updates.length);
    });
    conditionalSets.set(rows, group);
  }
  return group.submit(update);
}
