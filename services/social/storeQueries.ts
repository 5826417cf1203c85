/** Helpers of the social store's MongoDB writes and reads: duplicate-key races and chunked `$in` lookups. */
/** Whether a write failed only on duplicate keys (E11000): a record an earlier run or a concurrent writer stored. */
export function isDuplicateKeyError(error: unknown): boolean {
  const { code, writeErrors } = error as { code?: number; writeErrors?: { code?: number }[] };
  return code === 11000 || (Array.isArray(writeErrors) && writeErrors.every((e) => e.code === 11000));
}

/** For `.catch`: duplicate keys are records already stored (answers null); any other error is thrown. */
export function ignoreDuplicateKeys(error: unknown): null {
  if (isDuplicateKeyError(error)) return null;
  throw error;
}

/**
 * Ids per `$in` query. A document matched by `_id: { $in: ids }` is tested against the whole list, so one query of
 * n ids costs n² on the embedded engine; chunks keep it linear (measured: bench/socialSync.ts).
 */
export const IN_CHUNK = 50;

/** `ids` cut into IN_CHUNK-sized lists. */
export function chunksOf<T>(ids: T[], size = IN_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < ids.length; start += size) chunks.push(ids.slice(start, start + size));
  return chunks;
}
