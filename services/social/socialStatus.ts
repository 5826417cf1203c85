import type { BrainStatusSource } from '../../platform/areaStatus';
import type { SocialStore } from './socialStore';
import { socialStats } from './socialStats';
import type { SocialPorts } from './ports';

/**
 * The social graph as an area of `GET /admin/brain/status`: identities, persons, trust edges, interactions and sync
 * batches, the newest interaction (`last_sync`: a bot's batch, the route or the world). Degraded without the memory
 * service, when interactions are recorded and move trust but nobody remembers them.
 */
export function socialStatus(store: SocialStore, ports: SocialPorts): BrainStatusSource {
  return {
    name: 'social',
    status: async () => {
      const [stats, newest] = await Promise.all([
        socialStats(store),
        store.interactions.findOne({}, { recordedAt: 1 }).sort({ recordedAt: -1 }).lean(),
      ]);
      const identities = Object.values(stats.identities).reduce((sum, count) => sum + count, 0);
      return {
        state: ports.memory ? 'up' : 'degraded',
        indexes: {
          identities,
          persons: stats.persons,
          edges: stats.edges,
          interactions: stats.interactions.total,
          sync_batches: stats.sync_batches,
        },
        last_sync: newest?.recordedAt ?? null,
        last_consolidation: null,
        detail: ports.memory ? null : 'no memory service: interactions are not remembered',
      };
    },
  };
}
