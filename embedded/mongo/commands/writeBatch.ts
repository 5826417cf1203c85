/**
 * The shared loop of MongoDB's batched write commands (`insert`, `update`, `delete`): statements run in order,
 * each failure becomes a `writeErrors[]` entry with its batch index, and an ordered batch stops at the first one.
 */
import type { Document } from 'bson';
import { asMongoError, mongoError } from '../errors';

/** Runs `statements` and returns the collected write errors. */
export function runWriteBatch<T>(
  statements: unknown,
  ordered: boolean,
  run: (statement: T, index: number) => void,
): Document[] {
  if (!Array.isArray(statements)) throw mongoError('FailedToParse', 'write batch must be an array');
  const writeErrors: Document[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      run(statements[index] as T, index);
    } catch (error) {
      writeErrors.push(asMongoError(error).toWriteError(index));
      if (ordered) break;
    }
  }
  return writeErrors;
}

/** Adds `writeErrors` to a reply only when there are some, as MongoDB does. */
export function withWriteErrors(reply: Document, writeErrors: Document[]): Document {
  return writeErrors.length > 0 ? { ...reply, writeErrors } : reply;
}
