import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';
import type { GraphScope } from './GraphEntity';

/**
 * A bi-temporal fact edge (collection `graphfacts`): `subject —predicate→ object`, true in the world from `valid_from`
 * until `valid_to` (null while still true), and known to the system from `recorded_at` until `expired_at` (null while
 * the record stands). A new fact that contradicts a single-valued one closes the old one (`valid_to`) instead of
 * deleting it, so "what was true at T" keeps an answer. `subject` is an entity id; `object` is an entity id or a
 * literal value (`object_is_entity` says which).
 */
export interface GraphFactRecord {
  _id: string;
  scope: GraphScope;
  subject: string;
  predicate: string;
  object: string;
  object_is_entity: boolean;
  valid_from: Date;
  valid_to: Date | null;
  recorded_at: Date;
  expired_at: Date | null;
  source_memory_ids: string[];
}

const graphFactSchema = new Schema<GraphFactRecord>(
  {
    _id: { type: String, required: true },
    scope: { type: String, required: true },
    subject: { type: String, required: true },
    predicate: { type: String, required: true },
    object: { type: String, required: true },
    object_is_entity: { type: Boolean, required: true },
    valid_from: { type: Date, required: true },
    valid_to: { type: Date, default: null },
    recorded_at: { type: Date, required: true },
    expired_at: { type: Date, default: null },
    source_memory_ids: { type: [String], default: [] },
  },
  { versionKey: false },
);
// The facts of an entity (as subject or object), and the current value of (subject, predicate).
graphFactSchema.index({ subject: 1, predicate: 1, valid_to: 1 });
graphFactSchema.index({ object: 1 });
graphFactSchema.index({ scope: 1 });

/** The GraphFact model on `connection`. */
export const graphFactModel = (connection: Connection) => modelFor(connection, 'GraphFact', graphFactSchema);
