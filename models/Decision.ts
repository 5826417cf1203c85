import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** SPEC 2.9 decision categories. */
export const DECISION_CATEGORIES = [
  'architecture',
  'implementation',
  'config',
  'policy',
  'feature',
  'bugfix',
] as const;
export type DecisionCategory = (typeof DECISION_CATEGORIES)[number];

/** SPEC 3.3 decision statuses. */
export const DECISION_STATUSES = ['active', 'superseded', 'reverted'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** One version of a decision: the state after a change, who made it, when and why. */
export interface DecisionVersion {
  version: number;
  status: DecisionStatus;
  at: Date;
  actor: string;
  /** created, superseded, reverted, reactivated, supersedes. */
  change: string;
  reason: string | null;
  superseded_by: string | null;
}

/** Where a decision's publication into the brain's corpus stands: `pending` until a publish of its version succeeds. */
export const PUBLICATION_STATES = ['pending', 'published', 'failed'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/**
 * The publication of a decision into the corpus (`decisions/<id>.md`): every change makes it `pending`; a publish
 * that succeeds records the version it published, one that fails records `failed`, the attempt count and the error
 * code, and when the retry job tries again (`next_attempt_at`).
 */
export interface DecisionPublication {
  state: PublicationState;
  /** The decision version the corpus holds (0: none yet). */
  published_version: number;
  /** Failed attempts since the last success. */
  attempts: number;
  /** The last failure's error code (never its message: it may name a host). */
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
}

/**
 * A tracked decision (collection `decisions`) with every version embedded, so a change is one conditional update
 * on (`_id`, `version`). `source_memory_id` is set when consolidation extracted it from a memory (one decision per
 * memory sentence: the `_id` is derived from it, so a second run inserts nothing).
 */
export interface DecisionDocument {
  _id: string;
  title: string;
  category: DecisionCategory;
  rationale: string;
  context: string | null;
  status: DecisionStatus;
  version: number;
  supersedes: string[];
  superseded_by: string | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  source_memory_id: string | null;
  versions: DecisionVersion[];
  /** Absent on decisions stored before publication was tracked: the retry job publishes those once. */
  publication?: DecisionPublication;
}

const versionSchema = new Schema<DecisionVersion>(
  {
    version: { type: Number, required: true },
    status: { type: String, required: true },
    at: { type: Date, required: true },
    actor: { type: String, required: true },
    change: { type: String, required: true },
    reason: { type: String, default: null },
    superseded_by: { type: String, default: null },
  },
  { _id: false, versionKey: false },
);

const publicationSchema = new Schema<DecisionPublication>(
  {
    state: { type: String, required: true },
    published_version: { type: Number, required: true },
    attempts: { type: Number, required: true },
    last_error: { type: String, default: null },
    last_attempt_at: { type: Date, default: null },
    next_attempt_at: { type: Date, default: null },
  },
  { _id: false, versionKey: false },
);

const decisionSchema = new Schema<DecisionDocument>(
  {
    _id: { type: String, required: true },
    title: { type: String, required: true },
    category: { type: String, required: true },
    rationale: { type: String, required: true },
    context: { type: String, default: null },
    status: { type: String, required: true },
    version: { type: Number, required: true, min: 1 },
    supersedes: { type: [String], default: [] },
    superseded_by: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    created_by: { type: String, required: true },
    source_memory_id: { type: String, default: null },
    versions: { type: [versionSchema], default: [] },
    publication: { type: publicationSchema, required: false },
  },
  { versionKey: false },
);
decisionSchema.index({ created_at: -1, _id: -1 });
decisionSchema.index({ category: 1, status: 1 });
decisionSchema.index({ 'publication.state': 1, 'publication.next_attempt_at': 1 });

/** The Decision model on `connection`. */
export const decisionModel = (connection: Connection) => modelFor(connection, 'Decision', decisionSchema);
