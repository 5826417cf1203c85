import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';
import type { GraphScope } from './GraphEntity';

/** How two entities are related: found together in a chunk, a markdown link, a code import, or a named predicate. */
export type GraphRelationKind = 'co_occurs' | 'links_to' | 'imports' | 'related' | string;

/**
 * An undirected or directed weighted edge between two entities of one scope (collection `graphrelations`), used for
 * k-hop traversal and community detection. `_id` is `${from}>${kind}>${to}` (for `co_occurs` the two ids sorted), so
 * an upsert adds weight instead of a duplicate edge. Time-bound statements ("Ann lives in Riverside" until a later
 * memory says otherwise) are facts (`GraphFact`), not relations.
 */
export interface GraphRelationRecord {
  _id: string;
  scope: GraphScope;
  from: string;
  to: string;
  kind: GraphRelationKind;
  weight: number;
  first_seen: Date;
  last_seen: Date;
}

const graphRelationSchema = new Schema<GraphRelationRecord>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    kind: { type: String, required: true },
    weight: { type: Number, required: true, min: 0 },
    first_seen: { type: Date, required: true },
    last_seen: { type: Date, required: true },
  },
  { versionKey: false },
);
graphRelationSchema.index({ from: 1 });
graphRelationSchema.index({ to: 1 });
graphRelationSchema.index({ scope: 1 });

/** The GraphRelation model on `connection`. */
export const graphRelationModel = (connection: Connection) =>
  modelFor(connection, 'GraphRelation', graphRelationSchema);
