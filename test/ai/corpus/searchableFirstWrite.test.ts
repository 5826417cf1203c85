import { inlineChunking } from '../../../ai/chunking/chunkingPool';
import { validateSourceDocument } from '../../../ai/chunking/validation';
import { writeSearchableFirst, type SearchableFirstDeps } from '../../../ai/corpus/searchableFirstWrite';
import { workPerTurn } from '../../helpers/loopStall';
import { buildSourceDocument } from '../factories';

/** Holds the thread for `ms`, as indexing a document's chunks does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('writeSearchableFirst', () => {
  it("yields to the event loop between a batch's documents while it indexes them for fulltext", async () => {
    const chunking = inlineChunking();
    const batch = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        chunking.chunk(
          validateSourceDocument(
            buildSourceDocument({
              source: `docs/page${n}.md`,
              text: `# Page ${n}\n\nA short page about batches.`,
            }),
          ),
        ),
      ),
    );
    const indexed: string[] = [];
    // Each document's update notes the turn of the event loop it ran in.
    const perTurn = workPerTurn();
    const deps = {
      store: { findDocuments: async () => new Map(), saveDocuments: async () => undefined },
      journal: { recordMany: async () => undefined },
      vectors: { deleteChunks: async () => undefined },
      // Each document's fulltext update takes 4 ms: 120 ms for the batch.
      fullText: {
        replaceDocumentInSlices: async (documentId: string) => {
          busy(4);
          indexed.push(documentId);
          perTurn.note();
        },
      },
      backgroundIndexes: ['graph'],
    } as unknown as SearchableFirstDeps;

    const result = await writeSearchableFirst(deps, batch, 'tester', new Date());
    const { most } = perTurn.stop();

    expect(indexed).toHaveLength(30);
    expect(result.every((r) => r.status === 'created' && r.indexed.includes('fulltext'))).toBe(true);
    // In the shared bulk budget (10 ms a turn): about 3 documents a turn, not the batch's 30 in one task (before
    // stop 49). Counted by turns, not wall time, so a busy machine taking the thread away cannot fail it.
    expect(most).toBeLessThanOrEqual(4);
  });
});
