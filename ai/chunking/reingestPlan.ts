import type { ChunkRecord } from '../../models/corpusRecords';

/** What a (re-)ingest must write: chunks to embed and insert, chunks unchanged, chunk ids to delete. */
export interface ReingestPlan {
  /** New chunk ids: embed, upsert vectors, insert records. */
  added: ChunkRecord[];
  /** Same id as before (same document, same content): keep the vectors, refresh ordinal and lines. */
  kept: ChunkRecord[];
  /** Stored ids no longer produced: delete records and vectors. */
  removedIds: string[];
}

/**
 * Compares a document's stored chunk ids with a fresh chunking. Because chunk ids hash the document id and
 * the chunk's content, an edit to one section re-embeds only that section.
 */
export function planReingest(storedChunkIds: Iterable<string>, next: readonly ChunkRecord[]): ReingestPlan {
  const stored = new Set(storedChunkIds);
  const nextIds = new Set(next.map((c) => c.id));
  return {
    added: next.filter((c) => !stored.has(c.id)),
    kept: next.filter((c) => stored.has(c.id)),
    removedIds: [...stored].filter((id) => !nextIds.has(id)),
  };
}
