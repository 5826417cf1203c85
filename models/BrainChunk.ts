import { Schema, type Connection } from 'mongoose';
import { INDEX_NAMES, type ChunkRecord } from './corpusRecords';
import { modelFor } from './modelFor';

/**
 * A searchable chunk of a brain document (collection `brainchunks`), stored as `ChunkRecord` field for
 * field with the string chunk id (sha256 of document id and content hash) as `_id`, so an unchanged chunk
 * keeps its row, and its vectors, across re-ingests.
 */
export interface BrainChunkRecord extends Omit<ChunkRecord, 'id'> {
  _id: string;
}

const brainChunkSchema = new Schema<BrainChunkRecord>(
  {
    _id: { type: String, required: true },
    documentId: { type: String, required: true },
    index: { type: String, enum: INDEX_NAMES, required: true },
    source: { type: String, required: true },
    title: { type: String, required: true },
    kind: { type: String, enum: ['markdown', 'code', 'text'], required: true },
    headingPath: { type: [String], default: [] },
    symbols: { type: [String], default: [] },
    ordinal: { type: Number, required: true },
    startLine: { type: Number, required: true },
    endLine: { type: Number, required: true },
    text: { type: String, required: true },
    tokenCount: { type: Number, required: true },
    contentHash: { type: String, required: true },
    tags: { type: [String], default: [] },
    ingestedBy: { type: String },
    ingestedAt: { type: Date },
  },
  { versionKey: false },
);
// A document's chunks (re-ingest clean-up) and per-index counts.
brainChunkSchema.index({ documentId: 1 });
brainChunkSchema.index({ index: 1 });

/** The BrainChunk model on `connection`. */
export const brainChunkModel = (connection: Connection) =>
  modelFor(connection, 'BrainChunk', brainChunkSchema);

/** The stored fields of a chunk record (`id` becomes `_id`). */
export function fromChunkRecord(chunk: ChunkRecord): BrainChunkRecord {
  const { id, ...fields } = chunk;
  return { _id: id, ...fields };
}

/** A stored chunk as the corpus record search works with. */
export function toChunkRecord(stored: BrainChunkRecord): ChunkRecord {
  const { _id, ...fields } = stored;
  return { id: _id, ...fields };
}
