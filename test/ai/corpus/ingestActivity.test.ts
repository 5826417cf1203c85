import { setTimeout as sleep } from 'node:timers/promises';
import { IngestActivity } from '../../../ai/corpus/ingestActivity';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { GraphIndex } from '../../../ai/graph/graphIndex';
import { InMemoryEnrichmentJournal } from '../../../ai/corpus/enrichmentJournal';
import { VectorBackfill } from '../../../ai/corpus/vectorBackfill';
import { RaptorIndex } from '../../../ai/raptor/raptorIndex';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { buildChunk, buildSourceDocument } from '../factories';

const chunksOf = (documentId: string) =>
  ['ledger balance transfer', 'escrow refund grant', 'breaker threshold recovery'].map((text, ordinal) =>
    buildChunk({
      documentId,
      source: `docs/${documentId}.md`,
      ordinal,
      text: `The \`LedgerService\` ${text}.`,
    }),
  );

/** An IngestActivity whose hold ends when the test says (`release`), and which is busy until told otherwise. */
class ManualHold {
  busy = true;
  private readonly waiters: Array<() => void> = [];

  quiet(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves once `count` waits are pending. */
  async waiting(count: number): Promise<void> {
    while (this.waiters.length < count) await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('IngestActivity', () => {
  it('is busy while an ingest runs and for the settle time after it', async () => {
    const activity = new IngestActivity({ settleMs: 40, pollMs: 5 });
    expect(activity.busy).toBe(false);
    const end = activity.begin();
    expect(activity.busy).toBe(true);
    end();
    end(); // a second call changes nothing
    expect(activity.busy).toBe(true);
    await activity.quiet(1_000);
    expect(activity.busy).toBe(false);
  });

  it('gives up waiting after the bound while ingests keep running', async () => {
    const activity = new IngestActivity({ settleMs: 10, pollMs: 5 });
    activity.begin();
    const started = performance.now();
    await activity.quiet(60);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(activity.busy).toBe(true);
  });

  it('is marked by the Ingestor for as long as a batch is ingested', async () => {
    const activity = new IngestActivity({ settleMs: 0 });
    const fullText = new FullTextIndex();
    const seen: boolean[] = [];
    fullText.onDocumentChange(() => seen.push(activity.busy));
    const ingestor = new Ingestor({
      store: new InMemoryChunkStore(),
      vectors: new InMemoryVectorIndex(),
      fullText,
      embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
      activity,
    });

    await ingestor.ingest([buildSourceDocument({ source: 'docs/a.md', text: '# A\n\nLedger balance.\n' })]);

    expect(seen).toEqual([true]);
    expect(activity.busy).toBe(false);
  });

  it('holds the graph and RAPTOR upkeep while an ingest runs, then lets them catch up', async () => {
    const activity = new IngestActivity({ settleMs: 20, pollMs: 5 });
    const graph = new GraphIndex({ chunkText: () => undefined, yieldTo: activity, holdMs: 10_000 });
    const raptor = new RaptorIndex({
      embedder: new LocalSemanticEmbedder(),
      yieldTo: activity,
      holdMs: 10_000,
      quietMs: 0,
    });
    const end = activity.begin();
    for (const id of ['doc-a', 'doc-b']) {
      graph.enqueue(id, chunksOf(id));
      raptor.enqueue(id, chunksOf(id));
    }
    await sleep(100);
    expect(graph.stats().processedDocuments).toBe(0);
    expect(raptor.stats().processedDocuments).toBe(0);
    expect(graph.isPending('doc-a') && raptor.isPending('doc-b')).toBe(true);

    end();
    await Promise.all([graph.whenIdle(), raptor.whenIdle()]);
    expect(graph.stats().processedDocuments).toBe(2);
    expect(graph.stats().entities).toBeGreaterThan(0);
    expect(raptor.stats().processedDocuments).toBe(2);
    expect(raptor.stats().nodesPerLevel[0]).toBe(6);
  });

  it('applies at most documentsPerRound documents in one RAPTOR round', async () => {
    const raptor = new RaptorIndex({
      embedder: new LocalSemanticEmbedder(),
      documentsPerRound: 2,
      quietMs: 0,
    });
    for (const id of ['doc-a', 'doc-b', 'doc-c', 'doc-d', 'doc-e']) raptor.enqueue(id, chunksOf(id));
    const trees = raptor.trees.get('docs')!;
    const apply = jest.spyOn(trees, 'apply');

    await raptor.whenIdle();

    expect(apply.mock.calls.map(([changes]) => changes.length)).toEqual([2, 2, 1]);
    expect(raptor.stats().nodesPerLevel[0]).toBe(15);
  });

  it('applies at most documentsPerBusyRound graph documents in a round that starts while an ingest runs', async () => {
    const hold = new ManualHold();
    const graph = new GraphIndex({ chunkText: () => undefined, yieldTo: hold, documentsPerBusyRound: 2 });
    for (const id of ['doc-a', 'doc-b', 'doc-c', 'doc-d', 'doc-e']) graph.enqueue(id, chunksOf(id));
    await hold.waiting(1);
    expect(graph.stats().processedDocuments).toBe(0);

    // The hold runs out with the ingest still running: one bounded round, then the next waits again.
    hold.release();
    await hold.waiting(1);
    expect(graph.stats()).toMatchObject({ processedDocuments: 2, pendingDocuments: 3 });

    // The ingest ended: the rest in one round.
    hold.busy = false;
    hold.release();
    await graph.whenIdle();
    expect(graph.stats()).toMatchObject({ processedDocuments: 5, pendingDocuments: 0 });
  });

  it('holds the vector backfill while an ingest runs (one batch per hold), and says it is still running', async () => {
    const hold = new ManualHold();
    const store = new InMemoryChunkStore();
    const journal = new InMemoryEnrichmentJournal();
    const vectors = new InMemoryVectorIndex();
    const embeddings = new EmbeddingChain({ providers: [new LocalHashEmbedder()] });
    const backfill = new VectorBackfill(
      { journal, store, vectors, embeddings },
      { batchChunks: 3, pauseMs: 0, yieldTo: hold },
    );
    const ingestor = new Ingestor({
      store,
      vectors,
      fullText: new FullTextIndex(),
      embeddings,
      enrichment: { journal, backfill },
    });
    await ingestor.ingest(
      ['a', 'b', 'c'].map((n) =>
        buildSourceDocument({ source: `docs/${n}.md`, text: `# ${n}\n\nLedger balance ${n}.\n` }),
      ),
    );
    await hold.waiting(1);
    expect(backfill.stats()).toMatchObject({ state: 'running', done: 0 });

    // The hold ran out: one batch, then the next waits again.
    hold.release();
    await hold.waiting(1);
    expect(backfill.stats()).toMatchObject({ state: 'running', done: 3 });

    hold.busy = false;
    hold.release();
    await backfill.whenIdle();
    expect((await journal.backlog()).chunks).toBe(0);
    expect(backfill.stats()).toMatchObject({ state: 'idle', done: 3 });
  });
});
