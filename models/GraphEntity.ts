import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * The knowledge graph is one graph shared by retrieval (entities found in the corpus at ingest) and memory
 * (entities a subject's memories mention). `scope` says whose it is: `corpus` for the shared indexes, or a memory
 * subject (`user:<id>`, `npc:village:elder`, ...) so a subject's private entities never leak into another's.
 */
export type GraphScope = 'corpus' | `${string}:${string}`;

/** What kind of thing an entity is; open-ended, these are the kinds the offline extractors produce. */
export type GraphEntityType =
  'heading' | 'symbol' | 'person' | 'place' | 'organization' | 'concept' | 'term' | string;

/**
 * An entity node (collection `graphentities`). `_id` is `${scope}|${key}` where `key` is the normalised name
 * (`entityKey`), so an upsert by name is one conditional write. `mention_count` counts mentions across chunks or
 * memories (SPEC 2.9); `aliases` holds other surface forms merged into this entity.
 */
export interface GraphEntityRecord {
  _id: string;
  scope: GraphScope;
  key: string;
  name: string;
  type: GraphEntityType;
  aliases: string[];
  mention_count: number;
  first_seen: Date;
  last_seen: Date;
  /** Community ids this entity belongs to, outermost level first (retrieval's Louvain hierarchy). */
  communities: string[];
}

const graphEntitySchema = new Schema<GraphEntityRecord>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    type: { type: String, required: true },
    aliases: { type: [String], default: [] },
    mention_count: { type: Number, required: true, min: 0 },
    first_seen: { type: Date, required: true },
    last_seen: { type: Date, required: true },
    communities: { type: [String], default: [] },
  },
  { versionKey: false },
);
// Lookup by scope (stats, listing) and by most-mentioned within a scope (entity search ranking).
graphEntitySchema.index({ scope: 1, mention_count: -1 });
graphEntitySchema.index({ scope: 1, aliases: 1 });

/** The GraphEntity model on `connection`. */
export const graphEntityModel = (connection: Connection) =>
  modelFor(connection, 'GraphEntity', graphEntitySchema);

/** The normalised key of an entity name: lower case, inner whitespace collapsed, surrounding punctuation dropped. */
export function entityKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}_$]+|[^\p{L}\p{N}_$]+$/gu, '');
}

/** The `_id` of the entity named `name` in `scope`. */
export function entityId(scope: GraphScope, name: string): string {
  return `${scope}|${entityKey(name)}`;
}
