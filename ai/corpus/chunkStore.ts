import type { ChunkRecord, DocumentRecord, IndexName } from '../chunking/records';

/** One document's new state: its record, the chunks to insert or refresh, the chunk ids to delete. */
export interface DocumentWrite {
  document: DocumentRecord;
  upserts: ChunkRecord[];
  removedChunkIds: string[];
}

/** Corpus counts for GET /brain/stats. */
export interface CorpusCounts {
  documents: Record<IndexName, number>;
  chunks: Record<IndexName, number>;
  lastIngestAt: Date | null;
}

/**
 * Durable storage of documents and chunks (MongoDB in production: the mongoose Document and Chunk models
 * implement it; `InMemoryChunkStore` for tests and benches). Vectors live in the VectorIndex, the BM25
 * index is rebuilt from `allChunks()` at start-up.
 */
export interface ChunkStore {
  findDocument(documentId: string): Promise<DocumentRecord | undefined>;
  /** Writes a document, its upserted chunks and deletions (in Mongo: one transaction or ordered bulk writes). */
  saveDocument(write: DocumentWrite): Promise<void>;
  /** Every stored chunk, for rebuilding the fulltext index. */
  allChunks(): AsyncIterable<ChunkRecord>;
  counts(): Promise<CorpusCounts>;
}
