import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';
import type { GraphScope } from './GraphEntity';

/**
 * Where an entity is mentioned (collection `graphmentions`): one row per (entity, chunk or memory). Graph search
 * goes from query entities to their neighbourhood and then through these rows to the chunks; a re-ingest deletes the
 * rows of the chunks it replaced and inserts the new ones, which is what keeps `mention_count` honest.
 */
export interface GraphMentionRecord {
  /** `${entityId}@${sourceId}`. */
  _id: string;
  scope: GraphScope;
  entityId: string;
  /** A chunk id (corpus scope) or a memory id (subject scope). */
  sourceId: string;
  /** The document of the chunk, or the memory's session; lets a re-ingest drop a document's mentions at once. */
  documentId: string;
  count: number;
}

const graphMentionSchema = new Schema<GraphMentionRecord>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    entityId: { type: String, required: true },
    sourceId: { type: String, required: true },
    documentId: { type: String, required: true },
    count: { type: Number, required: true, min: 1 },
  },
  { versionKey: false },
);
graphMentionSchema.index({ entityId: 1 });
graphMentionSchema.index({ sourceId: 1 });
graphMentionSchema.index({ documentId: 1 });

/** The GraphMention model on `connection`. */
export const graphMentionModel = (connection: Connection) =>
  modelFor(connection, 'GraphMention', graphMentionSchema);
