import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import type { DocumentRecord } from '../../../models/corpusRecords';
import { MongoChunkStore } from '../../../ai/corpus/mongoChunkStore';
import { MongoEnrichmentJournal } from '../../../ai/corpus/mongoEnrichmentJournal';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { silentLogger } from '../../../platform/logger';
import { connectMongo } from '../../../platform/stores/mongo';
import { buildChunk } from '../factories';

function documentOf(id: string, chunkIds: string[]): DocumentRecord {
  return {
    id,
    index: 'docs',
    source: `docs/${id}.md`,
    title: id,
    tags: [],
    contentHash: `hash-${chunkIds.join('-')}`,
    byteLength: 10,
    tokenCount: 5,
    chunkIds,
    embeddingModel: null,
    ingestedAt: new Date('2026-01-01T00:00:00Z'),
  };
}

describe('batch writes of a searchable-first ingest (embedded MongoDB)', () => {
  let dir: string;
  let engine: MongoEngine;
  let connection: Connection;
  let run = 0;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-batch-writes-'));
    engine = await startMongoEngine({ dir });
  });
  afterAll(async () => {
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    connection = await connectMongo(engine.uri, `batch${run++}`, silentLogger);
  });
  afterEach(() => connection.close());

  it('saves a batch of documents and their chunks, finds them in one query and drops stale chunks', async () => {
    const store = new MongoChunkStore(connection);
    await store.init();
    const a1 = buildChunk({ text: 'alpha one', documentId: 'a' });
    const a2 = buildChunk({ text: 'alpha two', documentId: 'a' });
    const b1 = buildChunk({ text: 'beta one', documentId: 'b' });
    await store.saveDocuments([
      { document: documentOf('a', [a1.id, a2.id]), upserts: [a1, a2], removedChunkIds: [] },
      { document: documentOf('b', [b1.id]), upserts: [b1], removedChunkIds: [] },
    ]);

    const found = await store.findDocuments(['a', 'b', 'missing']);
    expect([...found.keys()].sort()).toEqual(['a', 'b']);
    expect(found.get('a')!.chunkIds).toEqual([a1.id, a2.id]);

    const a3 = buildChunk({ text: 'alpha three', documentId: 'a' });
    await store.saveDocuments([
      { document: documentOf('a', [a1.id, a3.id]), upserts: [a1, a3], removedChunkIds: [a2.id] },
    ]);
    expect([...(await store.getChunks([a1.id, a2.id, a3.id])).keys()].sort()).toEqual([a1.id, a3.id].sort());
    await store.setEmbeddingModel('a', 'local-sem-v1-384');
    expect((await store.findDocument('a'))!.embeddingModel).toBe('local-sem-v1-384');
  });

  it('journals owed vectors durably, merges repeats and completes only the version it took', async () => {
    const journal = new MongoEnrichmentJournal(connection);
    await journal.init();
    const early = new Date('2026-01-01T00:00:00Z');
    const late = new Date('2026-01-01T00:01:00Z');
    await journal.recordMany([{ documentId: 'b', chunkIds: ['b1'] }], late);
    await journal.recordMany(
      [
        { documentId: 'a', chunkIds: ['a1', 'a2'] },
        { documentId: 'c', chunkIds: ['c1'] },
      ],
      early,
    );
    await journal.record('a', ['a2', 'a3'], late);

    expect(await journal.backlog()).toEqual({ documents: 3, chunks: 5, oldestQueuedAt: early });
    const [first, ...rest] = await journal.next(3);
    expect(first).toMatchObject({
      documentId: 'a',
      chunkIds: ['a1', 'a2', 'a3'],
      queuedAt: early,
      version: 2,
    });
    expect(rest).toEqual([]);
    await journal.complete('a', 1);
    expect(await journal.find('a')).toBeDefined();
    await journal.complete('a', 2);
    expect(await journal.find('a')).toBeUndefined();
    expect((await journal.next(100)).map((e) => e.documentId)).toEqual(['c', 'b']);
  });
});
