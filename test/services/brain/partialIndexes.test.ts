import { partialIndexReasons, withPartialIndexes } from '../../../services/brain/partialIndexes';

type Core = Parameters<typeof partialIndexReasons>[0];

function core(vectors: string, graph: { state: string; pendingDocuments: number }, raptorPending = 0): Core {
  return {
    backfill: { stats: () => ({ state: vectors, done: 0, rate: 0, failures: 0 }) },
    graph: { stats: () => ({ entities: 1, relations: 0, communitiesPerLevel: [], ...graph }) },
    raptor: {
      stats: () => ({
        state: raptorPending ? 'stale' : 'ready',
        nodesPerLevel: [],
        pendingDocuments: raptorPending,
        summariesWritten: 0,
      }),
    },
  } as unknown as Core;
}

describe('search answers from a partial index', () => {
  const caughtUp = { state: 'ready', pendingDocuments: 0 };

  it('names the vectors for semantic and hybrid while the backfill runs or fails, never for fulltext', () => {
    expect(partialIndexReasons(core('running', caughtUp), ['semantic'])).toEqual([
      'vectors: recent ingests are still being embedded',
    ]);
    expect(partialIndexReasons(core('failing', caughtUp), ['hybrid'])).toEqual([
      'vectors: recent ingests are not embedded yet (the embedding chain is failing; retrying)',
    ]);
    expect(partialIndexReasons(core('running', caughtUp), ['fulltext'])).toEqual([]);
    expect(partialIndexReasons(core('idle', caughtUp), ['semantic'])).toEqual([]);
  });

  it('names the graph and the trees with the documents they still miss, for the strategies that read them', () => {
    const behind = core('idle', { state: 'building', pendingDocuments: 12 }, 3);
    expect(partialIndexReasons(behind, ['fulltext', 'graph', 'raptor'])).toEqual([
      'graph: 12 documents are not in the knowledge graph yet',
      'raptor: 3 documents are not in the trees yet',
    ]);
    expect(partialIndexReasons(behind, ['fulltext', 'semantic'])).toEqual([]);
  });

  it("reads no index's state for a fulltext-only search (SIMPLE's route), nor the ones the strategies skip", () => {
    const read: string[] = [];
    const counting = (name: string, stats: () => unknown) => ({
      stats: () => {
        read.push(name);
        return stats();
      },
    });
    const inner = core('running', { state: 'building', pendingDocuments: 1 }, 1);
    const watched = {
      backfill: counting('vectors', inner.backfill.stats),
      graph: counting('graph', inner.graph.stats),
      raptor: counting('raptor', inner.raptor.stats),
    } as unknown as Core;

    expect(partialIndexReasons(watched, ['fulltext'])).toEqual([]);
    expect(read).toEqual([]);
    partialIndexReasons(watched, ['fulltext', 'graph']);
    expect(read).toEqual(['graph']);
  });

  it('marks the answer degraded with the reasons, and leaves a complete answer as it was', () => {
    const body = { degraded: false, hits: [] };
    expect(withPartialIndexes(body, [])).toBe(body);
    expect(withPartialIndexes(body, ['vectors: x'])).toEqual({
      degraded: true,
      degraded_reasons: ['vectors: x'],
      hits: [],
    });
  });
});
