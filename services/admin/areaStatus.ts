import type { BrainService } from '../brain';
import type { AreaStatusBody } from './schemas';
import type { BrainStatusSource } from '../../platform/areaStatus';

export type { BrainAreaStatus, BrainStatusSource } from '../../platform/areaStatus';

/** An embedding provider and its circuit breaker's state. */
export interface ProviderState {
  provider: string;
  model: string;
  state: string;
}

/** The knowledge service (`/brain`) as a status source: its indexes, vectors and breakers. */
export function knowledgeStatus(brain: BrainService): BrainStatusSource {
  return {
    name: 'knowledge',
    status: async () => {
      const stats = await brain.stats();
      const open = stats.embedding_providers.filter((p) => p.state === 'OPEN');
      const local = stats.embedding_providers.find((p) => p.provider === 'local');
      return {
        state:
          open.length === stats.embedding_providers.length
            ? 'down'
            : open.length > 0 || local?.state === 'OPEN'
              ? 'degraded'
              : 'up',
        indexes: {
          ...Object.fromEntries(
            Object.entries(stats.documents).map(([index, n]) => [`${index}_documents`, n]),
          ),
          chunks: stats.total_chunks,
          vectors: stats.vectors.reduce((sum, space) => sum + space.count, 0),
        },
        last_sync: stats.last_ingest_at ? new Date(stats.last_ingest_at) : null,
        last_consolidation: null,
        detail: open.length ? `circuit open: ${open.map((p) => p.provider).join(', ')}` : null,
      };
    },
  };
}

/** Every source's status (a failing one is `down` with its message); the overall state is the worst. */
export async function collectStatus(
  sources: BrainStatusSource[],
): Promise<{ status: 'up' | 'degraded' | 'down'; areas: AreaStatusBody[] }> {
  const areas = await Promise.all(
    sources.map(async (source): Promise<AreaStatusBody> => {
      try {
        const status = await source.status();
        return {
          name: source.name,
          state: status.state,
          indexes: status.indexes,
          last_sync: status.last_sync?.toISOString() ?? null,
          last_consolidation: status.last_consolidation?.toISOString() ?? null,
          detail: status.detail,
        };
      } catch (error) {
        return {
          name: source.name,
          state: 'down',
          indexes: {},
          last_sync: null,
          last_consolidation: null,
          detail: error instanceof Error ? error.message.slice(0, 200) : 'status failed',
        };
      }
    }),
  );
  const states = areas.map((area) => area.state);
  return {
    status: states.includes('down')
      ? states.every((s) => s === 'down')
        ? 'down'
        : 'degraded'
      : states.includes('degraded')
        ? 'degraded'
        : 'up',
    areas,
  };
}
