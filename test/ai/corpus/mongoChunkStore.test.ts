import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import type { DocumentRecord } from '../../../models/corpusRecords';
import { MongoChunkStore } from '../../../ai/corpus/mongoChunkStore';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { brainChunkModel, fromChunkRecord } from '../../../models/BrainChunk';
import { brainDocumentModel } from '../../../models/BrainDocument';
import { silentLogger } from '../../../platform/logger';
import { connectMongo } from '../../../platform/stores/mongo';
import { buildChunk } from '../factories';

/** A chunk of the document `doc-guide`. */
function guideChunk(text: string, overrides: Parameters<typeof buildChunk>[0] = {}) {
  return buildChunk({ text, documentId: 'doc-guide', ...overrides });
}

function buildDocument(overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    id: 'doc-guide',
    index: 'docs',
    source: 'docs/guide.md',
    title: 'Guide',
    tags: ['intro'],
    contentHash: 'hash-1',
    byteLength: 120,
    tokenCount: 30,
    chunkIds: [],
    embeddingModel: 'local-hash-v1-384',
    ingestedAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

describe('MongoChunkStore (embedded MongoDB)', () => {
  let dir: string;
  let engine: MongoEngine;
  let connection: Connection;
  let store: MongoChunkStore;
  let run = 0;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-chunk-store-'));
    engine = await startMongoEngine({ dir });
  });
  afterAll(async () => {
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    connection = await connectMongo(engine.uri, `chunks${run++}`, silentLogger);
    store = new MongoChunkStore(connection);
    await store.init();
  });
  afterEach(() => connection.close());

  async function all(): Promise<string[]> {
    const ids: string[] = [];
    for await (const chunk of store.allChunks()) ids.push(chunk.text);
    return ids.sort();
  }

  it('stores a document and its chunks as records, string ids included', async () => {
    const chunks = [guideChunk('first part'), guideChunk('second part', { ordinal: 1 })];
    const document = buildDocument({ chunkIds: chunks.map((c) => c.id) });

    await store.saveDocument({ document, upserts: chunks, removedChunkIds: [] });

    expect(await store.findDocument('doc-guide')).toEqual(document);
    expect(await store.findDocument('doc-missing')).toBeUndefined();
    expect(await store.getChunks([chunks[1].id, 'missing'])).toEqual(new Map([[chunks[1].id, chunks[1]]]));
    expect(await all()).toEqual(['first part', 'second part']);
  });

  it('finds the documents embedded outside the given spaces, leaving out those not yet embedded', async () => {
    const save = (id: string, embeddingModel: string | null) =>
      store.saveDocument({
        document: buildDocument({ id, embeddingModel }),
        upserts: [],
        removedChunkIds: [],
      });
    await save('doc-old', 'local-sem-v1-384');
    await save('doc-new', 'local-sem-v1-384*2+use-lite-v1-512*1');
    await save('doc-owed', null);

    const outside = await store.documentsEmbeddedOutside(['local-sem-v1-384*2+use-lite-v1-512*1']);

    expect(outside.map((d) => d.id)).toEqual(['doc-old']);
    expect(
      await store.documentsEmbeddedOutside(['local-sem-v1-384', 'local-sem-v1-384*2+use-lite-v1-512*1']),
    ).toEqual([]);
  });

  it('deletes the chunks a new version no longer lists', async () => {
    const [kept, dropped, added] = ['kept', 'dropped', 'added'].map((text) => guideChunk(text));
    await store.saveDocument({
      document: buildDocument({ chunkIds: [kept.id, dropped.id] }),
      upserts: [kept, dropped],
      removedChunkIds: [],
    });

    await store.saveDocument({
      document: buildDocument({ chunkIds: [kept.id, added.id], contentHash: 'hash-2' }),
      upserts: [kept, added],
      removedChunkIds: [dropped.id],
    });

    expect(await all()).toEqual(['added', 'kept']);
    expect(await brainChunkModel(connection).countDocuments()).toBe(2);
  });

  it('ignores chunks no document lists (a write interrupted before its document) and deletes them later', async () => {
    const listed = guideChunk('listed');
    const orphan = guideChunk('orphan');
    await brainChunkModel(connection).create(fromChunkRecord(orphan));
    await store.saveDocument({ document: buildDocument({ chunkIds: [] }), upserts: [], removedChunkIds: [] });
    expect(await all()).toEqual([]);

    await store.saveDocument({
      document: buildDocument({ chunkIds: [listed.id] }),
      upserts: [listed],
      removedChunkIds: [],
    });

    expect(await all()).toEqual(['listed']);
    expect(await brainChunkModel(connection).countDocuments()).toBe(1);
  });

  it('counts documents and chunks per index and finds the latest and recent ingests', async () => {
    const docChunk = guideChunk('doc chunk');
    const testChunk = buildChunk({ text: 'test chunk', index: 'tests', documentId: 'doc-test' });
    await store.saveDocument({
      document: buildDocument({ chunkIds: [docChunk.id] }),
      upserts: [docChunk],
      removedChunkIds: [],
    });
    const later = new Date('2026-01-02T00:00:00Z');
    await store.saveDocument({
      document: buildDocument({
        id: 'doc-test',
        index: 'tests',
        source: 'test/a.test.ts',
        chunkIds: [testChunk.id],
        ingestedAt: later,
        ingestedBy: 'user:0123456789abcdef01234567',
      }),
      upserts: [testChunk],
      removedChunkIds: [],
    });

    expect(await store.counts()).toEqual({
      documents: { docs: 1, code: 0, tests: 1 },
      chunks: { docs: 1, code: 0, tests: 1 },
      lastIngestAt: later,
      lastIngestBy: 'user:0123456789abcdef01234567',
      // The first document was stored without provenance (as before it was recorded).
      documentsByIngester: [
        { ingestedBy: 'unrecorded', documents: 1 },
        { ingestedBy: 'user:0123456789abcdef01234567', documents: 1 },
      ],
    });
    expect((await store.documentsIngestedSince(later)).map((d) => d.id)).toEqual(['doc-test']);
  });

  it('counts only committed chunks: an ingest that failed before its documents were written adds none', async () => {
    const committed = guideChunk('committed');
    await store.saveDocuments([
      { document: buildDocument({ chunkIds: [committed.id] }), upserts: [committed], removedChunkIds: [] },
    ]);
    // The store goes away after the chunks of the next batch are written, before its documents (the commit point).
    const failed = [
      guideChunk('lost one', { documentId: 'doc-2' }),
      guideChunk('lost two', { documentId: 'doc-2' }),
    ];
    jest
      .spyOn(brainDocumentModel(connection).collection, 'bulkWrite')
      .mockRejectedValueOnce(new Error('connection closed'));
    await expect(
      store.saveDocuments([
        {
          document: buildDocument({ id: 'doc-2', source: 'docs/two.md', chunkIds: failed.map((c) => c.id) }),
          upserts: failed,
          removedChunkIds: [],
        },
      ]),
    ).rejects.toThrow('connection closed');

    expect(await brainChunkModel(connection).countDocuments()).toBe(3);
    expect(await store.counts()).toMatchObject({
      documents: { docs: 1, code: 0, tests: 0 },
      chunks: { docs: 1, code: 0, tests: 0 },
    });
  });

  it('reuses the counts for a second unless this store writes, and then reads them again', async () => {
    const first = guideChunk('first chunk');
    await store.saveDocuments([
      { document: buildDocument({ chunkIds: [first.id] }), upserts: [first], removedChunkIds: [] },
    ]);
    expect((await store.counts()).chunks.docs).toBe(1);

    // Written by another process (another store on the same database): not seen within the second.
    const other = new MongoChunkStore(connection);
    const second = guideChunk('second chunk', { documentId: 'doc-2' });
    await other.saveDocument({
      document: buildDocument({ id: 'doc-2', source: 'docs/two.md', chunkIds: [second.id] }),
      upserts: [second],
      removedChunkIds: [],
    });
    expect((await store.counts()).chunks.docs).toBe(1);

    // A write of this store reads them again at once.
    const third = guideChunk('third chunk', { documentId: 'doc-3' });
    await store.saveDocuments([
      {
        document: buildDocument({ id: 'doc-3', source: 'docs/three.md', chunkIds: [third.id] }),
        upserts: [third],
        removedChunkIds: [],
      },
    ]);
    expect(await store.counts()).toMatchObject({
      documents: { docs: 3, code: 0, tests: 0 },
      chunks: { docs: 3, code: 0, tests: 0 },
    });
  });
});
