import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import type { DocumentRecord } from '../../../models/corpusRecords';
import { MongoChunkStore } from '../../../ai/corpus/mongoChunkStore';
import { CLAIM_MS, MongoEnrichmentJournal } from '../../../ai/corpus/mongoEnrichmentJournal';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { ManualClock } from '../../../platform/clock';
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
    await store.setEmbeddingModel(['a'], 'local-sem-v1-384');
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

  it('spreads owed entries over the processes sharing the journal, and a dead process’s claims lapse', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:10:00Z'));
    const [one, two] = [
      new MongoEnrichmentJournal(connection, clock),
      new MongoEnrichmentJournal(connection, clock),
    ];
    // Two processes: a journal's owner is its process.
    Object.assign(two, { owner: `${one.owner}-other` });
    await one.init();
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries())
      await one.record(id, [`${id}1`, `${id}2`], new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000));

    // Each takes the oldest entries nobody else holds.
    expect((await one.next(4)).map((e) => e.documentId)).toEqual(['a', 'b']);
    expect((await two.next(4)).map((e) => e.documentId)).toEqual(['c', 'd']);
    expect([await one.claimedElsewhere(), await two.claimedElsewhere()]).toEqual([2, 2]);
    // A journal takes its own claims again (a batch that failed is retried by the same process).
    expect((await one.next(4)).map((e) => e.documentId)).toEqual(['a', 'b']);

    // One completes its entries; a re-record of one meanwhile keeps it owed and frees it for anyone.
    await one.record('b', ['b3'], new Date('2026-01-01T00:05:00Z'));
    await one.complete('a', 1);
    await one.complete('b', 1);
    expect(await one.find('a')).toBeUndefined();
    expect((await two.next(4)).map((e) => e.documentId)).toEqual(['b']);

    // A clean stop gives its claims back at once.
    await two.release();
    expect(await one.claimedElsewhere()).toBe(0);
    expect((await two.next(8)).map((e) => e.documentId)).toEqual(['b', 'c', 'd']);
    // Two dies holding them: after the claims lapse, one takes them.
    expect((await one.next(4)).map((e) => e.documentId)).toEqual([]);
    clock.advance(CLAIM_MS + 1);
    expect((await one.next(5)).map((e) => e.documentId)).toEqual(['b', 'c']);
    expect(await one.claimedElsewhere()).toBe(0);
  });

  it('keeps the backlog totals as a counter: record, complete and a whole batch, with no scan of the journal', async () => {
    const journal = new MongoEnrichmentJournal(connection);
    await journal.init();
    const at = new Date('2026-01-01T00:00:00Z');
    const scans = jest.spyOn(connection.models.BrainEnrichment, 'aggregate');
    await journal.recordMany(
      [
        { documentId: 'a', chunkIds: ['a1', 'a2'] },
        { documentId: 'b', chunkIds: ['b1'] },
      ],
      at,
    );
    // A repeat of an owed chunk (a retried ingest) is not counted twice.
    await journal.record('a', ['a2', 'a3'], new Date('2026-01-01T00:01:00Z'));
    await journal.record('c', ['c1', 'c2'], new Date('2026-01-01T00:02:00Z'));
    expect(await journal.backlog()).toEqual({ documents: 3, chunks: 6, oldestQueuedAt: at });

    const batch = await journal.next(4);
    expect(batch.map((e) => e.documentId)).toEqual(['a', 'b']);
    // Recorded again while its batch ran: stays owed with all of its ids.
    await journal.record('b', ['b2'], new Date('2026-01-01T00:03:00Z'));
    await journal.completeMany(batch);
    expect(await journal.backlog()).toEqual({ documents: 2, chunks: 4, oldestQueuedAt: at });
    await journal.complete('c', 1);
    const [b] = await journal.next(10);
    await journal.complete('b', b.version);
    expect(await journal.backlog()).toEqual({ documents: 0, chunks: 0, oldestQueuedAt: null });
    expect(scans).not.toHaveBeenCalled();
    scans.mockRestore();
  });

  it('recounts the totals at start-up and resets them when the journal is empty (a crash between writes)', async () => {
    const journal = new MongoEnrichmentJournal(connection);
    await journal.init();
    const at = new Date('2026-01-01T00:00:00Z');
    await journal.record('a', ['a1', 'a2'], at);
    // The process died between an entry's write and its $inc: the counter is off.
    const totals = connection.collection('brainenrichmenttotals');
    await totals.updateOne({ _id: 'vectors' as never }, { $inc: { documents: 5, chunks: 40 } });
    expect(await journal.backlog()).toMatchObject({ documents: 6, chunks: 42 });

    const restarted = new MongoEnrichmentJournal(connection);
    await restarted.init();
    expect(await restarted.backlog()).toEqual({ documents: 1, chunks: 2, oldestQueuedAt: at });

    await totals.updateOne({ _id: 'vectors' as never }, { $inc: { chunks: 7 } });
    const [entry] = await restarted.next(10);
    await restarted.complete('a', entry.version);
    expect(await restarted.backlog()).toEqual({ documents: 0, chunks: 0, oldestQueuedAt: null });
    expect(await totals.findOne({})).toMatchObject({ documents: 0, chunks: 0 });
  });
});
