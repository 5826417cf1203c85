import type { BrainStatusSource } from '../../platform/areaStatus';
import { countPendingMerges } from './links/identityLinker';
import { countWaitingForMemory } from './memories/interactionMemories';
import type { SocialStore } from './socialStore';
import { socialStats } from './socialStats';
import type { SocialPorts } from './ports';

/**
 * The social graph as an area of `GET /admin/brain/status`: identities, persons, trust edges, interactions and sync
 * batches, the newest interaction (`last_sync`: a bot's batch, the route or the world), and the writes still owed
 * (`memories_waiting`: interactions not remembered yet; `merges_waiting`: links whose history is not folded in yet;
 * the recovery job finishes both every minute). Degraded without the memory service, when interactions are recorded
 * and move trust but nobody remembers them.
 */
export function socialStatus(store: SocialStore, ports: SocialPorts): BrainStatusSource {
  return {
    name: 'social',
    status: async () => {
      const [stats, newest, memoriesWaiting, mergesWaiting] = await Promise.all([
        socialStats(store),
        store.interactions.findOne({}, { recordedAt: 1 }).sort({ recordedAt: -1 }).lean(),
        countWaitingForMemory({ store }),
        countPendingMerges(store),
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
          memories_waiting: memoriesWaiting,
          merges_waiting: mergesWaiting,
        },
        last_sync: newest?.recordedAt ?? null,
        last_consolidation: null,
        detail: ports.memory
          ? waitingDetail(memoriesWaiting, mergesWaiting)
          : 'no memory service: interactions are not remembered',
      };
    },
  };
}

/** What the recovery job still owes, in words; null when nothing. */
function waitingDetail(memories: number, merges: number): string | null {
  const owed = [
    memories > 0 ? `${memories} interaction(s) wait for their memories` : null,
    merges > 0 ? `${merges} link(s) wait for their history to be merged` : null,
  ].filter(Boolean);
  return owed.length > 0 ? `${owed.join('; ')} (the recovery job retries every minute)` : null;
}
