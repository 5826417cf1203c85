import { InMemoryEnrichmentJournal } from '../../../ai/corpus/enrichmentJournal';
import { Ingestor } from '../../../ai/corpus/ingestor';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import { VectorBackfill } from '../../../ai/corpus/vectorBackfill';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { buildSourceDocument } from '../factories';

const page = (n: number, extra = '') =>
  buildSourceDocument({
    source: `docs/page${n}.md`,
    text: `# Page ${n}\n\n## One\n\nMarker ${['alpaca', 'bison', 'camel'][n - 1]} in prose.${extra}\n\n## Two\n\nA second section of page ${n}.\n`,
  });

/** The brain's stores in memory; `kick` is what the ingestor calls after a write (nothing: a crash before it ran). */
function buildStores() {
  const store = new InMemoryChunkStore();
  const journal = new InMemoryEnrichmentJournal();
  const vectors = new InMemoryVectorIndex();
  const fullText = new FullTextIndex();
  const embeddings = new EmbeddingChain({ providers: [new LocalHashEmbedder()], retry: { attempts: 1 } });
  const kicks: number[] = [];
  const ingestor = new Ingestor({
    store,
    vectors,
    fullText,
    embeddings,
    enrichment: { journal, backfill: { kick: () => kicks.push(1) } },
    backgroundIndexes: ['graph'],
  });
  return { store, journal, vectors, fullText, embeddings, ingestor, kicks };
}

const vectorCount = async (vectors: InMemoryVectorIndex) =>
  (await vectors.spaces()).reduce((n, space) => n + space.count, 0);

describe('searchable first, enriched after', () => {
  it('answers findable by fulltext with the vectors owed on record, none computed yet', async () => {
    const { ingestor, journal, vectors, fullText, kicks } = buildStores();

    const results = await ingestor.ingest([page(1), page(2)]);

    expect(results.map((r) => [r.status, r.embedded, r.embeddingModel, r.indexed, r.pending])).toEqual([
      ['created', 0, null, ['fulltext'], ['vectors', 'graph']],
      ['created', 0, null, ['fulltext'], ['vectors', 'graph']],
    ]);
    expect(fullText.search('bison').map((hit) => hit.source)).toEqual(['docs/page2.md']);
    expect(await vectorCount(vectors)).toBe(0);
    expect(await journal.backlog()).toMatchObject({ documents: 2, chunks: 4 });
    expect(kicks).toHaveLength(1);
  });

  it('lets a backfill started later (a restart) compute every owed vector once, and leaves nothing owed', async () => {
    const { ingestor, store, journal, vectors, embeddings } = buildStores();
    const [first] = await ingestor.ingest([page(1), page(2), page(3)]);
    // The process died before its backfill ran: a new one over the same journal and stores picks the work up.
    const backfill = new VectorBackfill(
      { journal, store, vectors, embeddings },
      { batchChunks: 4, pauseMs: 0 },
    );

    backfill.kick();
    await backfill.whenIdle();

    expect(await vectorCount(vectors)).toBe(6);
    expect(await journal.backlog()).toEqual({ documents: 0, chunks: 0, oldestQueuedAt: null });
    expect((await store.findDocument(first.documentId))!.embeddingModel).toBe('local-hash-v1-384');
    expect(backfill.stats()).toMatchObject({ state: 'idle', done: 6, failures: 0 });
  });

  it('waits while other processes hold every owed entry instead of calling itself idle', async () => {
    const { ingestor, store, journal, vectors, embeddings } = buildStores();
    await ingestor.ingest([page(1)]);
    // Another process claimed the entry; it finishes it two looks later.
    const claimed = [...(await journal.next(100))];
    const take = journal.next.bind(journal);
    let looks = 0;
    journal.next = async (max) => (looks >= 2 ? take(max) : []);
    Object.assign(journal, { claimedElsewhere: async () => (++looks <= 2 ? claimed.length : 0) });
    const backfill = new VectorBackfill(
      { journal, store, vectors, embeddings },
      { batchChunks: 4, pauseMs: 0, claimWaitMs: 1 },
    );

    backfill.kick();
    await backfill.whenIdle();

    expect(looks).toBe(3);
    // Its claim lapsed without the work being done (looks ran out): this process did it.
    expect(await vectorCount(vectors)).toBe(2);
    expect(await journal.backlog()).toMatchObject({ documents: 0 });
  });

  it('embeds only the new chunk of a changed document and skips chunks the document no longer lists', async () => {
    const { ingestor, store, journal, vectors, embeddings } = buildStores();
    const backfill = new VectorBackfill({ journal, store, vectors, embeddings }, { pauseMs: 0 });
    await ingestor.ingest([page(1)]);
    backfill.kick();
    await backfill.whenIdle();

    const [changed] = await ingestor.ingest([page(1, ' Changed.')]);
    expect(changed).toMatchObject({ status: 'updated', removed: 1, pending: ['vectors', 'graph'] });
    expect((await journal.next(100))[0].chunkIds).toHaveLength(1);
    backfill.kick();
    await backfill.whenIdle();

    expect(await vectorCount(vectors)).toBe(2);
    expect(backfill.stats().done).toBe(3);
  });

  it('keeps owed work through a failing chain and finishes it once the chain answers again', async () => {
    const { ingestor, store, journal, vectors } = buildStores();
    let down = true;
    const local = new LocalHashEmbedder();
    const flaky = {
      embed: async (texts: string[]) => {
        if (down) throw new Error('every provider is down');
        return { model: local.model, vectors: await local.embed(texts) };
      },
    };
    const backfill = new VectorBackfill(
      { journal, store, vectors, embeddings: flaky as unknown as EmbeddingChain },
      { pauseMs: 0, retryMs: 20 },
    );
    await ingestor.ingest([page(1)]);

    backfill.kick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(backfill.stats()).toMatchObject({ state: 'failing' });
    expect(await journal.backlog()).toMatchObject({ chunks: 2 });
    down = false;
    await backfill.whenIdle();

    expect(await vectorCount(vectors)).toBe(2);
    expect(await journal.backlog()).toMatchObject({ chunks: 0 });
    expect(backfill.stats().failures).toBeGreaterThan(0);
  });
});
