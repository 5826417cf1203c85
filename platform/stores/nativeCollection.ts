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

type Keyed = Document & { _id: unknown };
type Rows = Collection<Keyed>;

/** One group commit per collection and kind of call, made on first use. */
function groupFor<T, R>(
  groups: WeakMap<Rows, GroupCommit<T, R>>,
  rows: Rows,
  flush: (items: T[]) => Promise<R[]>,
): GroupCommit<T, R> {
  let group = groups.get(rows);
  if (!group) {
    group = new GroupCommit(flush, { gatherTurn: true });
    groups.set(rows, group);
  }
  return group;
}

const inserts = new WeakMap<Rows, GroupCommit<Keyed, Inserted<Keyed>>>();
const conditionalSets = new WeakMap<Rows, GroupCommit<ConditionalSet, boolean>>();
const reads = new WeakMap<Rows, GroupCommit<unknown, Keyed | null>>();

/**
 * Inserts `doc` unless a document with its `_id` exists; answers the stored document and whether this call created
 * it (an idempotency record: the first writer wins, every later one reads what the first wrote). Concurrent calls on
 * one collection share an `insertMany` (group commit).
 */
export function insertOrFind<T extends Keyed>(collection: Collection<T>, doc: T): Promise<Inserted<T>> {
  const rows = collection as unknown as Rows;
  return groupFor(inserts, rows, (docs) => insertAll(rows, docs)).submit(doc) as Promise<Inserted<T>>;
}

async function insertAll(rows: Rows, docs: Keyed[]): Promise<Inserted<Keyed>[]> {
  const existing: number[] = [];
  try {
    await rows.insertMany(docs, { ordered: false, ignoreUndefined: true });
  } catch (error) {
    const failures = [(error as { writeErrors?: unknown }).writeErrors ?? []].flat() as { index: number }[];
    if (failures.length === 0 || !failures.every(isDuplicateKey)) throw error;
    existing.push(...failures.map((failure) => failure.index));
  }
  const found =
    existing.length > 0
      ? await findAll(
          rows,
          existing.map((index) => docs[index]._id),
        )
      : [];
  return docs.map((doc, index) => {
    const at = existing.indexOf(index);
    if (at < 0) return { stored: doc, created: true };
    const stored = found[at];
    if (!stored) throw new Error(`${rows.collectionName} ${String(doc._id)} vanished`);
    return { stored, created: false };
  });
}

/** One conditional update: `$set` of `set` on the document `filter` matches. */
export interface ConditionalSet {
  filter: Document;
  set: Document;
}

/**
 * Applies `update` and answers true when it changed a document. Concurrent calls on one collection share a
 * `bulkWrite`; when any of that batch matched nothing, every caller of it is answered false (and reads its
 * document): a false answer is always safe, a true one always exact.
 */
export function setIfMatches<T extends Keyed>(
  collection: Collection<T>,
  update: ConditionalSet,
): Promise<boolean> {
  const rows = collection as unknown as Rows;
  const group = groupFor(conditionalSets, rows, async (updates) => {
    const written = await rows.bulkWrite(
      updates.map(({ filter, set }) => ({ updateOne: { filter, update: { $set: set } } })),
      { ordered: false },
    );
    return updates.map(() => written.modifiedCount === updates.length);
  });
  return group.submit(update);
}

/** The document with `_id` `id`, or null; concurrent calls on one collection share a `find` (group commit). */
export function findById<T extends Keyed>(collection: Collection<T>, id: unknown): Promise<T | null> {
  const rows = collection as unknown as Rows;
  return groupFor(reads, rows, (ids) => findAll(rows, ids)).submit(id) as Promise<T | null>;
}

/** The documents with the `_id`s `ids` (null where none), in order. */
async function findAll(rows: Rows, ids: unknown[]): Promise<(Keyed | null)[]> {
  const found = await rows.find({ _id: { $in: ids } } as never).toArray();
  const byId = new Map(found.map((doc) => [String(doc._id), doc]));
  return ids.map((id) => byId.get(String(id)) ?? null);
}
