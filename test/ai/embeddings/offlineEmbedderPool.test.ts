import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';
import { OfflineEmbedderPool } from '../../../ai/embeddings/offlineEmbedderPool';
import { extractEntities } from '../../../ai/graph/entityExtractor';
import { GraphIndex } from '../../../ai/graph/graphIndex';
import type { ChunkRecord } from '../../../models/corpusRecords';
import { topicChunks } from '../factories';

/** Texts of every shape a document brings: prose, code, a table, identifiers, non-ASCII, empty, long. */
const TEXTS = [
  'Reciprocal rank fusion merges the fulltext and the vector lists.',
  'function embedQueryV2_fast(texts: string[]) { return texts.map((t) => t.length); }',
  '| setting | default |\n|---|---|\n| BRAIN_EMBEDDER_THREADS | 1 |',
  'Erase the record; delete the entry; the fault is an error in the currency exchange.',
  'Café naïve façade — 東京 ümlaut',
  '',
  'chunks chunking chunked '.repeat(400),
  ...Array.from(
    { length: 150 },
    (_, i) => `Page ${i}: the ingest stores document ${i * 7} and its vectors in Qdrant.`,
  ),
];

describe('OfflineEmbedderPool', () => {
  jest.setTimeout(60_000);

  it.each([
    ['semantic', new LocalSemanticEmbedder()],
    ['hash', new LocalHashEmbedder()],
  ] as const)(
    'computes in worker threads exactly the %s vectors of the in-thread embedder',
    async (kind, local) => {
      const pool = new OfflineEmbedderPool({ kind, threads: 1, batchSize: 64 });
      try {
        expect(pool.model).toBe(local.model);
        const vectors = await pool.embed(TEXTS);

        expect(pool.counts.threaded).toBe(TEXTS.length);
        expect(pool.counts.inline).toBe(0);
        expect(pool.started).toBe(true);
        expect(vectors).toHaveLength(TEXTS.length);
        // Bit for bit: the same float64 numbers, not merely close ones.
        expect(vectors).toEqual(TEXTS.map((text) => local.embedOne(text)));
        vectors.forEach((vector, i) => expect(Object.is(vector[7], local.embedOne(TEXTS[i])[7])).toBe(true));
      } finally {
        await pool.close();
      }
    },
  );

  it('embeds a single short text (a query) on the calling thread and keeps its vector', async () => {
    const pool = new OfflineEmbedderPool({ threads: 1 });
    const [first] = await pool.embed(['reciprocal rank fusion']);
    const [again] = await pool.embed(['reciprocal rank fusion']);

    expect(first).toEqual(new LocalSemanticEmbedder().embedOne('reciprocal rank fusion'));
    expect(again).toBe(first);
    expect(pool.counts).toEqual({ threaded: 0, inline: 1 });
    expect(pool.started).toBe(false);
    await pool.close();
  });

  it('embeds a call of a few short texts (RAPTOR summaries of a few parents) on the calling thread, more in the thread', async () => {
    const pool = new OfflineEmbedderPool({ kind: 'hash', threads: 1 });
    try {
      const few = TEXTS.slice(7, 15);
      expect(await pool.embed(few)).toEqual(few.map((text) => new LocalHashEmbedder().embedOne(text)));
      expect(pool.counts).toEqual({ threaded: 0, inline: 8 });

      await pool.embed(TEXTS.slice(7, 16));
      // The 9 texts of the second call went to the thread, as does a call of 2 long texts (over 4,000 characters).
      await pool.embed([TEXTS[6], TEXTS[6]]);
      expect(pool.counts).toEqual({ threaded: 11, inline: 8 });
    } finally {
      await pool.close();
    }
  });

  it('ends its threads on close, and embeds on the calling thread afterwards', async () => {
    const pool = new OfflineEmbedderPool({ kind: 'hash', threads: 1 });
    await pool.embed(TEXTS.slice(0, 10));
    expect(pool.started).toBe(true);

    await pool.close();

    expect(pool.started).toBe(false);
    const after = await pool.embed(TEXTS.slice(0, 10));
    expect(after).toEqual(TEXTS.slice(0, 10).map((text) => new LocalHashEmbedder().embedOne(text)));
    expect(pool.counts).toEqual({ threaded: 10, inline: 10 });
  });

  it('with threads: 0 embeds everything on the calling thread (in slices)', async () => {
    const pool = new OfflineEmbedderPool({ kind: 'hash', threads: 0 });
    const vectors = await pool.embed(TEXTS);

    expect(vectors).toEqual(TEXTS.map((text) => new LocalHashEmbedder().embedOne(text)));
    expect(pool.counts).toEqual({ threaded: 0, inline: TEXTS.length });
    expect(pool.started).toBe(false);
    await pool.close();
  });

  it('a close while a batch runs still answers the batch (on the calling thread)', async () => {
    const pool = new OfflineEmbedderPool({ kind: 'hash', threads: 1 });
    const running = pool.embed(TEXTS);
    await pool.close();

    expect(await running).toEqual(TEXTS.map((text) => new LocalHashEmbedder().embedOne(text)));
  });
});

describe('OfflineEmbedderPool: graph entities in its threads', () => {
  jest.setTimeout(60_000);

  const DOCUMENTS = Array.from({ length: 30 }, (_, d) =>
    topicChunks(`topic${d % 7}`, ['threshold', 'recovery', 'trial', 'gauge', `w${d}`], `doc-${d}`),
  );

  it('finds exactly the entities of extractEntities, in order', async () => {
    const pool = new OfflineEmbedderPool({ threads: 1 });
    try {
      const chunks = DOCUMENTS.flat();
      expect(await pool.extractEntities(chunks)).toEqual(chunks.map((chunk) => extractEntities(chunk)));
      expect(pool.started).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('a GraphIndex extracting in the pool builds the same graph and communities as one extracting in-thread', async () => {
    const pool = new OfflineEmbedderPool({ threads: 1 });
    const extract = jest.fn((chunks: readonly ChunkRecord[]) => pool.extractEntities(chunks));
    const threaded = new GraphIndex({ chunkText: () => 'text', extract, sliceChunks: 40 });
    const inThread = new GraphIndex({ chunkText: () => 'text', sliceChunks: 40 });
    try {
      for (const index of [threaded, inThread]) {
        DOCUMENTS.forEach((chunks, d) => index.enqueue(`doc-${d}`, chunks));
        // A replaced and a removed document too.
        index.enqueue('doc-3', topicChunks('topic9', ['ledger', 'balance'], 'doc-3'));
        index.enqueue('doc-4', []);
        await index.whenIdle();
      }
      // Groups of about 40 chunks: several tasks, none larger than a slice.
      expect(extract.mock.calls.length).toBeGreaterThan(2);
      expect(Math.max(...extract.mock.calls.map(([chunks]) => chunks.length))).toBeLessThanOrEqual(40);
      expect(threaded.graph.entities).toEqual(inThread.graph.entities);
      expect(threaded.graph.counts()).toEqual(inThread.graph.counts());
      expect(threaded.communities.perLevel()).toEqual(inThread.communities.perLevel());
    } finally {
      await pool.close();
    }
  });
});
