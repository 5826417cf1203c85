import { Schema, type Connection } from 'mongoose';
import { INDEX_NAMES, type DocumentRecord } from './corpusRecords';
import { modelFor } from './modelFor';

/**
 * A document of the brain's corpus (collection `braindocuments`), one per (index, source), stored as
 * `DocumentRecord` field for field with the string document id as `_id`. `chunkIds` lists the chunks of the
 * current version: it is written after the chunks, so it is the commit point of an ingest and the start-up
 * rebuild of the fulltext index trusts only chunks it lists.
 */
export interface BrainDocumentRecord extends Omit<DocumentRecord, 'id'> {
  _id: string;
}

const brainDocumentSchema = new Schema<BrainDocumentRecord>(
  {
    _id: { type: String, required: true },
    index: { type: String, enum: INDEX_NAMES, required: true },
    source: { type: String, required: true },
    title: { type: String, required: true },
    tags: { type: [String], default: [] },
    contentHash: { type: String, required: true },
    byteLength: { type: Number, required: true },
    tokenCount: { type: Number, required: true },
    chunkIds: { type: [String], default: [] },
    embeddingModel: { type: String, default: null },
    ingestedAt: { type: Date, default: null },
    ingestedBy: { type: String },
  },
  { versionKey: false },
);
// Per-index counts for /brain/stats, and the latest ingests (last ingest time, other processes catching up).
brainDocumentSchema.index({ index: 1 });
brainDocumentSchema.index({ ingestedAt: -1 });

/** The BrainDocument model on `connection`. */
export const brainDocumentModel = (connection: Connection) =>
  modelFor(connection, 'BrainDocument', brainDocumentSchema);

/**
 * A document record as its stored row, field for field as the schema keeps it (defaults applied, nothing else): for
 * writes through the driver, which skip mongoose's casting and validation of each row.
 */
export function fromDocumentRecord(document: DocumentRecord): BrainDocumentRecord {
  return {
    _id: document.id,
    index: document.index,
    source: document.source,
    title: document.title,
    tags: [...document.tags],
    contentHash: document.contentHash,
    byteLength: document.byteLength,
    tokenCount: document.tokenCount,
    chunkIds: [...document.chunkIds],
    embeddingModel: document.embeddingModel ?? null,
    ingestedAt: document.ingestedAt ?? null,
    ...(document.ingestedBy !== undefined ? { ingestedBy: document.ingestedBy } : {}),
  };
}

/** A stored document as the corpus record the ingestor works with. */
export function toDocumentRecord(stored: BrainDocumentRecord): DocumentRecord {
  const { _id, ...fields } = stored;
  return { id: _id, ...fields, tags: [...fields.tags], chunkIds: [...fields.chunkIds] };
}
