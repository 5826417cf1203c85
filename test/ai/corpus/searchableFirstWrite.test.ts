import { inlineChunking } from '../../../ai/chunking/chunkingPool';
import { validateSourceDocument } from '../../../ai/chunking/validation';
import { writeSearchableFirst, type SearchableFirstDeps } from '../../../ai/corpus/searchableFirstWrite';
import { longestStallDuring } from '../../helpers/loopStall';
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
    const deps = {
      store: { findDocuments: async () => new Map(), saveDocuments: async () => undefined },
      journal: { recordMany: async () => undefined },
      vectors: { deleteChunks: async () => undefined },
      // Each document's fulltext update takes 4 ms: 120 ms for the batch.
      fullText: {
        replaceDocumentInSlices: async (documentId: string) => {
          busy(4);
          indexed.push(documentId);
        },
      },
      backgroundIndexes: ['graph'],
    } as unknown as SearchableFirstDeps;

    const { result, longestMs } = await longestStallDuring(() =>
      writeSearchableFirst(deps, batch, 'tester', new Date()),
    );

    expect(indexed).toHaveLength(30);
    expect(result.every((r) => r.status === 'created' && r.indexed.includes('fulltext'))).toBe(true);
    // Yields every 10 ms: no stretch near the batch's 120 ms (before, the whole batch ran as one task).
    expect(longestMs).toBeLessThan(60);
  });
});
