import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from 'mongoose';
import { CommunityHierarchy } from '../../../ai/graph/communityHierarchy';
import { CorpusGraph } from '../../../ai/graph/corpusGraph';
import { inProcessLouvain, workerLouvain, type LouvainInput } from '../../../ai/graph/louvainRunner';
import { MongoGraphSink } from '../../../ai/graph/mongoGraphSink';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { graphRelationModel } from '../../../models/GraphRelation';
import { silentLogger } from '../../../platform/logger';
import { seededRandom } from '../../../platform/seededRandom';
import { connectMongo } from '../../../platform/stores/mongo';
import { busyFor, longestStallDuring } from '../../helpers/loopStall';
import { topicChunks } from '../factories';

const TOPICS = ['billing', 'ledger', 'payments', 'invoices', 'refunds', 'accounts', 'reports', 'audits'];
const WORDS = ['retry', 'timeout', 'breaker', 'queue', 'cache', 'index', 'shard', 'replica'];

/** A corpus graph of eight topics of eight chunks, whose `neighbours` costs `ms` a call (a large graph's walk). */
function slowGraph(ms: number): CorpusGraph {
  const graph = new CorpusGraph();
  for (const topic of TOPICS) graph.replaceDocument(`doc-${topic}`, topicChunks(topic, WORDS));
  const neighbours = graph.neighbours.bind(graph);
  graph.neighbours = (key) => {
    busyFor(ms);
    return neighbours(key);
  };
  return graph;
}

/**
 * The graph's upkeep yields to the event loop while it walks the graph (bench/README.md, issue 37, stop 48): each
 * `neighbours` call here costs 3 ms, so walking every entity in one task would hold the loop for the whole walk.
 */
describe('graph upkeep in slices', () => {
  it('collects the communities’ edges in slices of about 10 ms, with the same communities as a fast walk', async () => {
    const graph = slowGraph(3);
    const walk = 3 * graph.entities.size;
    expect(walk).toBeGreaterThan(150);

    const sliced = new CommunityHierarchy();
    const { longestMs } = await longestStallDuring(() =>
      sliced.update(graph, new Set(graph.entities.keys())),
    );

    const fast = new CommunityHierarchy();
    const quick = slowGraph(0);
    await fast.update(quick, new Set(quick.entities.keys()));
    expect(longestMs).toBeLessThan(walk / 2);
    expect(sliced.all()).toEqual(fast.all());
  });

  describe('MongoGraphSink (embedded MongoDB)', () => {
    let dir: string;
    let engine: MongoEngine;
    let connection: Connection;

    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-graph-slices-'));
      engine = await startMongoEngine({ dir });
      connection = await connectMongo(engine.uri, 'graphslices', silentLogger);
    });
    afterAll(async () => {
      await connection.close();
      await engine.close();
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('builds a round’s rows in slices and writes the same relations', async () => {
      const graph = slowGraph(3);
      const changes = graph.takeChanges();
      const walk = 3 * changes.entities.size;
      expect(walk).toBeGreaterThan(150);

      const { longestMs } = await longestStallDuring(() =>
        new MongoGraphSink(connection).sync(graph, changes, []),
      );

      const relations = await graphRelationModel(connection).countDocuments({ scope: 'corpus' });
      expect(longestMs).toBeLessThan(walk / 2);
      expect(relations).toBe(graph.counts().relations);
    });
  });

  it('runs Louvain on its thread with the same partition as in process for a graph packed in several slices', async () => {
    const random = seededRandom(7);
    const nodes = Array.from({ length: 3000 }, (_, i) => `entity ${i}`);
    const seen = new Set<string>();
    const edges: LouvainInput['edges'] = [];
    while (edges.length < 45_000) {
      // Ten planted groups of 300, a few edges across them.
      const from = Math.floor(random() * nodes.length);
      const inside = random() < 0.9;
      const to = inside
        ? from - (from % 300) + Math.floor(random() * 300)
        : Math.floor(random() * nodes.length);
      const [a, b] = from < to ? [from, to] : [to, from];
      if (a === b || seen.has(`${a}-${b}`)) continue;
      seen.add(`${a}-${b}`);
      edges.push([nodes[a], nodes[b], 1 + Math.floor(random() * 3)]);
    }
    const input = { nodes, edges, resolution: 1, seed: 1 };
    const worker = workerLouvain();
    try {
      const mapping = await worker(input);

      expect(mapping).toEqual(await inProcessLouvain(input));
      expect(new Set(Object.values(mapping)).size).toBeGreaterThanOrEqual(10);
    } finally {
      await worker.close();
    }
  });
});
