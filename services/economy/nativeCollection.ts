import type { Collection, Document } from 'mongodb';
import type { Model } from 'mongoose';

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

/**
 * Inserts `doc` unless a document with its `_id` exists; answers the stored document and whether this call created
 * it (an idempotency record: the first writer wins, every later one reads what the first wrote).
 */
export async function insertOrFind<T extends Document & { _id: string }>(
  collection: Collection<T>,
  doc: T,
): Promise<{ stored: T; created: boolean }> {
  try {
    await collection.insertOne(doc as never, { ignoreUndefined: true });
    return { stored: doc, created: true };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const stored = (await collection.findOne({ _id: doc._id } as never)) as T | null;
  if (!stored) throw new Error(`${collection.collectionName} ${doc._id} vanished`);
  return { stored, created: false };
}
