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
