import type { BrainStatusSource } from '../../../platform/areaStatus';
import type { DecisionPublication } from './decisionPublication';

/**
 * The decision log as an area of `GET /admin/brain/status`: its decisions and those whose current version the
 * corpus does not hold yet. Degraded while any publish has failed, naming the oldest failure (decision, time, code).
 */
export function decisionStatus(publication: DecisionPublication): BrainStatusSource {
  return {
    name: 'decisions',
    status: async () => {
      const backlog = await publication.backlog();
      const oldest = backlog.oldestFailure;
      return {
        state: backlog.failed > 0 ? 'degraded' : 'up',
        indexes: { decisions: backlog.decisions, unpublished: backlog.pending + backlog.failed },
        last_sync: null,
        last_consolidation: null,
        detail: oldest
          ? `${backlog.failed} decision(s) not published into the corpus; oldest ${oldest.id} failed at ${oldest.at?.toISOString() ?? 'an unknown time'} with ${oldest.error ?? 'no code'} (retried every minute with backoff)`
          : null,
      };
    },
  };
}
