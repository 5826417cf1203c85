import type { BrainStatusSource } from '../../platform/areaStatus';
import { indexBacklog } from './listingIndexing';
import type { MarketCore } from './marketCore';

/**
 * The marketplace as an area of `GET /admin/brain/status`: its active listings and those semantic search cannot find
 * yet (`unindexed`). Degraded while the indexing of any active listing has failed, naming the oldest listing not
 * indexed (id, when it was listed, attempts, last error code).
 */
export function marketplaceStatus(core: MarketCore): BrainStatusSource {
  return {
    name: 'marketplace',
    status: async () => {
      const backlog = await indexBacklog(core);
      const oldest = backlog.oldest;
      return {
        state: backlog.failed > 0 ? 'degraded' : 'up',
        indexes: { active_listings: backlog.active, unindexed_listings: backlog.unindexed },
        last_sync: null,
        last_consolidation: null,
        detail:
          backlog.failed > 0 && oldest
            ? `${backlog.unindexed} active listing(s) not in semantic search; oldest ${oldest.id} listed at ${oldest.listedAt.toISOString()}, ${oldest.attempts} failed attempt(s), last ${oldest.error ?? 'none yet'} (the recovery job retries it 30 s after each attempt)`
            : null,
      };
    },
  };
}
