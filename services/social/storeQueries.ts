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
 * Ids per `$in` query: a bound on one command's size. It was 50 while the embedded engine tested each matched
 * document against the whole list (n² per query); it re-checks an `$in` of plain values with a Set now, and a sync
 * batch's ~900 identities in chunks of 50 were 19 reads (bench/socialSync.ts).
 */
export const IN_CHUNK = 1000;

/** `ids` cut into IN_CHUNK-sized lists. */
export function chunksOf<T>(ids: T[], size = IN_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < ids.length; start += size) chunks.push(ids.slice(start, start + size));
  return chunks;
}
