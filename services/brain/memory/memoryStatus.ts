import type { BrainStatusSource } from '../../../platform/areaStatus';
import type { Consolidation } from '../consolidation/consolidation';
import type { MemoryKeeper } from './memoryKeeper';

/**
 * The memory service as an area of `GET /admin/brain/status`: its memories and their vectors, the newest memory
 * (`last_sync`) and the newest consolidation that succeeded. Degraded when the newest finished consolidation failed
 * (its error, cut to 200 characters as a failing status's is, in `detail`: an operator sees a broken night before the
 * next one).
 */
export function memoryStatus(memory: MemoryKeeper, consolidation: Consolidation): BrainStatusSource {
  return {
    name: 'memory',
    status: async () => {
      const [memories, vectors, newest, finished, succeeded] = await Promise.all([
        memory.memories.estimatedDocumentCount(),
        memory.options.vectors.size(),
        // Memory ids are UUIDv7, in time order: the newest is the last on the _id index.
        memory.memories.findOne({}, { created_at: 1 }).sort({ _id: -1 }).lean(),
        consolidation.runs
          .findOne({ status: { $ne: 'running' } })
          .sort({ started_at: -1 })
          .lean(),
        consolidation.runs.findOne({ status: 'succeeded' }).sort({ started_at: -1 }).lean(),
      ]);
      const failed = finished?.status === 'failed';
      return {
        state: failed ? 'degraded' : 'up',
        indexes: { memories, vectors },
        last_sync: newest?.created_at ?? null,
        last_consolidation: succeeded?.finished_at ?? null,
        detail: failed
          ? `last consolidation failed at ${finished.finished_at?.toISOString() ?? 'an unknown time'}: ${(finished.error ?? 'no error recorded').slice(0, 200)}`
          : null,
      };
    },
  };
}
