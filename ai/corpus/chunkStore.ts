import type { ChunkRecord, DocumentRecord, IndexName } from '../../models/corpusRecords';
import type { ChunkLookup } from '../retrieval/chunkLookup';

/** One document's new state: its record, the chunks to insert or refresh, the chunk ids to delete. */
export interface DocumentWrite {
  document: DocumentRecord;
  upserts: ChunkRecord[];
  removedChunkIds: string[];
}

/** How /brain/stats names documents stored before ingest provenance was recorded. */
export const UNRECORDED_INGESTER = 'unrecorded';

/** Corpus counts for GET /brain/stats. */
export interface CorpusCounts {
  documents: Record<IndexName, number>;
  chunks: Record<IndexName, number>;
  lastIngestAt: Date | null;
  /** Who ingested the latest version (see DocumentRecord.ingestedBy); null before any, or when not recorded. */
  lastIngestBy: string | null;
  /** Documents per ingester (`unrecorded` for versions stored before provenance), most first. */
  documentsByIngester: { ingestedBy: string; documents: number }[];
}

/**
 * Durable storage of documents and chunks (MongoDB in production: `MongoChunkStore` over the BrainDocument
 * and BrainChunk models; `InMemoryChunkStore` for tests and benches). Vectors live in the VectorIndex, the BM25
 * index is rebuilt from `allChunks()` at start-up.
 */
export interface ChunkStore extends ChunkLookup {
  findDocument(documentId: string): Promise<DocumentRecord | undefined>;
  /** The stored documents among `documentIds` (one query for a whole ingest batch). */
  findDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentRecord>>;
  /** Writes a batch of documents: every chunk first, then the documents (the commit point), then stale chunks. */
  saveDocuments(writes: readonly DocumentWrite[]): Promise<void>;
  /** Records the vector space a document's chunks were embedded in (the vector backfill). */
  setEmbeddingModel(documentIds: readonly string[], model: string): Promise<void>;
  /** Writes a document, its upserted chunks and deletions (in Mongo: ordered writes, see MongoChunkStore). */
  saveDocument(write: DocumentWrite): Promise<void>;
  /** Every stored chunk, for rebuilding the fulltext index. */
  allChunks(): AsyncIterable<ChunkRecord>;
  counts(): Promise<CorpusCounts>;
  /** Documents whose current version was ingested at or after `since` (other processes catching up). */
  documentsIngestedSince(since: Date): Promise<DocumentRecord[]>;
  /** Documents embedded in a vector space other than `models` (none yet embedded are not among them). */
  documentsEmbeddedOutside(models: readonly string[]): Promise<DocumentRecord[]>;
}
