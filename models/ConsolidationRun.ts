import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** The steps of a consolidation run, in order. */
export const CONSOLIDATION_STEPS = ['decisions', 'entities', 'contradictions', 'archive', 'purge'] as const;
export type ConsolidationStep = (typeof CONSOLIDATION_STEPS)[number];

/** running, succeeded, failed. */
export type ConsolidationStatus = 'running' | 'succeeded' | 'failed';

/**
 * One consolidation run (collection `consolidationruns`). `_id` is `scheduled:<slot ISO>` for the nightly slot it
 * serves (so two workers never both run one slot) or `manual:<uuid>`. `steps_done` lets a run interrupted by a
 * crash resume where it stopped; `heartbeat_at` tells a live run from a dead one.
 */
export interface ConsolidationRunDocument {
  _id: string;
  trigger: 'scheduled' | 'catch_up' | 'manual';
  slot: Date | null;
  status: ConsolidationStatus;
  started_at: Date;
  finished_at: Date | null;
  heartbeat_at: Date;
  duration_ms: number | null;
  steps_done: ConsolidationStep[];
  counts: Record<string, number>;
  error: string | null;
  attempts: number;
}

const consolidationRunSchema = new Schema<ConsolidationRunDocument>(
  {
    _id: { type: String, required: true },
    trigger: { type: String, required: true },
    slot: { type: Date, default: null },
    status: { type: String, required: true },
    started_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
    heartbeat_at: { type: Date, required: true },
    duration_ms: { type: Number, default: null },
    steps_done: { type: [String], default: [] },
    counts: { type: Schema.Types.Mixed, default: {} },
    error: { type: String, default: null },
    attempts: { type: Number, required: true, min: 1 },
  },
  { versionKey: false, minimize: false },
);
consolidationRunSchema.index({ started_at: -1 });
consolidationRunSchema.index({ slot: -1 });

/** The ConsolidationRun model on `connection`. */
export const consolidationRunModel = (connection: Connection) =>
  modelFor(connection, 'ConsolidationRun', consolidationRunSchema);
