import { setTimeout as sleep } from 'node:timers/promises';
import { IngestActivity } from '../../../ai/corpus/ingestActivity';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { GraphIndex } from '../../../ai/graph/graphIndex';
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
});
