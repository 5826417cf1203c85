import type { IndexName } from '../../models/corpusRecords';

/** One embedding model's vector space. Vectors of different spaces are never compared. */
export interface VectorSpace {
  /** The model id (e.g. `text-embedding-3-small`, `local-hash-384`); names the space. */
  model: string;
  dimensions: number;
}

/** A chunk's vector in one space, with the payload the search filter needs. */
export interface ChunkVector {
  chunkId: string;
  documentId: string;
  index: IndexName;
  vector: number[];
}

/** A vector search result: cosine similarity in [-1, 1], best first. */
export interface VectorMatch {
  chunkId: string;
  score: number;
}

/** Space statistics for /brain/stats and for choosing a query model. */
export interface VectorSpaceStats extends VectorSpace {
  count: number;
}

/**
 * Dense vector storage for the SEMANTIC strategy, one space per embedding model. The Qdrant-backed module
 * implements it with named vectors (one per model, declared from `EmbeddingChain.spaces()` when the
 * collection is created) and payload `{ chunkId, documentId, index }` indexed for filtering;
 * `InMemoryVectorIndex` implements it for tests and benches.
 */
export interface VectorIndex {
  /** Declares a space; idempotent; throws if the model exists with other dimensions. */
  ensureSpace(space: VectorSpace): Promise<void>;
  /** Inserts or replaces the chunks' vectors in the model's space (which must exist). */
  upsert(model: string, points: readonly ChunkVector[]): Promise<void>;
  /** Top `limit` chunks by cosine similarity within one model's space, optionally only some indexes. */
  search(
    model: string,
    vector: readonly number[],
    options: { indexes?: readonly IndexName[]; limit: number },
  ): Promise<VectorMatch[]>;
  /** Removes the chunks' vectors from one model's space, or from every space when `model` is omitted. */
  deleteChunks(chunkIds: readonly string[], model?: string): Promise<void>;
  /** Removes all vectors of a document from every space (re-ingest, delete). */
  deleteByDocument(documentId: string): Promise<void>;
  /** Spaces with their vector counts. */
  spaces(): Promise<VectorSpaceStats[]>;
}
