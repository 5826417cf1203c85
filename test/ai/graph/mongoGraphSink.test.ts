import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import type { Community } from '../../../ai/graph/communityHierarchy';
import { CorpusGraph } from '../../../ai/graph/corpusGraph';
import { MongoGraphSink } from '../../../ai/graph/mongoGraphSink';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { graphCommunityModel } from '../../../models/GraphCommunity';
import { ManualClock } from '../../../platform/clock';
import { silentLogger } from '../../../platform/logger';
import { connectMongo } from '../../../platform/stores/mongo';

const community = (id: string, members: string[], summary = `about ${id}`): Community => ({
  id,
  level: 0,
  parent: null,
  members,
  title: id,
  summary,
});

describe('MongoGraphSink communities (embedded MongoDB)', () => {
  let dir: string;
  let engine: MongoEngine;
  let connection: Connection;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-graph-sink-'));
    engine = await startMongoEngine({ dir });
    connection = await connectMongo(engine.uri, 'graphsink', silentLogger);
  });
  afterAll(async () => {
    await connection.close();
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes every community once, then only the ones that changed, and deletes the ones gone', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const sink = new MongoGraphSink(connection, clock);
    const graph = new CorpusGraph();
    const none = { entities: new Set<string>(), documents: new Set<string>() };
    const rows = async () =>
      (await graphCommunityModel(connection).find().sort({ _id: 1 }).lean()).map((row) => [
        row._id,
        row.members,
        row.summary,
        row.updated_at.toISOString().slice(11, 19),
      ]);
    // A row left by an earlier process: the first round replaces everything.
    await graphCommunityModel(connection).create({
      _id: 'corpus|c0',
      scope: 'corpus',
      level: 0,
      parent: null,
      members: [],
      title: 'old',
      summary: 'old',
      updated_at: new Date(0),
    });

    await sink.sync(graph, none, [community('c1', ['ledger']), community('c2', ['escrow', 'refund'])]);
    expect(await rows()).toEqual([
      ['corpus|c1', ['corpus|ledger'], 'about c1', '00:00:00'],
      ['corpus|c2', ['corpus|escrow', 'corpus|refund'], 'about c2', '00:00:00'],
    ]);

    clock.advance(60_000);
    const writes = jest.spyOn(graphCommunityModel(connection), 'bulkWrite');
    await sink.sync(graph, none, [
      community('c1', ['ledger']),
      community('c2', ['escrow', 'refund', 'grant'], 'grants too'),
      community('c3', ['breaker']),
    ]);
    expect(await rows()).toEqual([
      ['corpus|c1', ['corpus|ledger'], 'about c1', '00:00:00'],
      ['corpus|c2', ['corpus|escrow', 'corpus|refund', 'corpus|grant'], 'grants too', '00:01:00'],
      ['corpus|c3', ['corpus|breaker'], 'about c3', '00:01:00'],
    ]);
    expect(writes.mock.calls.flatMap(([ops]) => ops).length).toBe(2);

    clock.advance(60_000);
    await sink.sync(graph, none, [community('c3', ['breaker'])]);
    expect(await rows()).toEqual([['corpus|c3', ['corpus|breaker'], 'about c3', '00:01:00']]);
    writes.mockRestore();
  });
});
