import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';
import type { GraphScope } from './GraphEntity';

/**
 * A community of the knowledge graph (collection `graphcommunities`): Louvain clusters of entities, split
 * recursively into a hierarchy (level 0 = top, `parent` the enclosing community), each with a title (its most
 * connected entities) and a summary. Retrieval's community search reads them; `_id` is `${scope}|${id}`.
 */
export interface GraphCommunityRecord {
  _id: string;
  scope: GraphScope;
  level: number;
  parent: string | null;
  /** Entity `_id`s of the members. */
  members: string[];
  title: string;
  summary: string;
  updated_at: Date;
}

const graphCommunitySchema = new Schema<GraphCommunityRecord>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    level: { type: Number, required: true, min: 0 },
    parent: { type: String, default: null },
    members: { type: [String], default: [] },
    title: { type: String, required: true },
    summary: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
graphCommunitySchema.index({ scope: 1, level: 1 });

/** The GraphCommunity model on `connection`. */
export const graphCommunityModel = (connection: Connection) =>
  modelFor(connection, 'GraphCommunity', graphCommunitySchema);
