import type { ConsolidationRunDocument } from '../../../models/ConsolidationRun';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A consolidation run as the routes answer it. */
export function presentRun(run: ConsolidationRunDocument) {
  return {
    id: run._id,
    trigger: run.trigger,
    slot: iso(run.slot),
    status: run.status,
    started_at: run.started_at.toISOString(),
    finished_at: iso(run.finished_at),
    duration_ms: run.duration_ms,
    steps_done: run.steps_done,
    counts: run.counts,
    error: run.error,
    attempts: run.attempts,
  };
}
