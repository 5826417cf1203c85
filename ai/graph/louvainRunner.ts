import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../platform/seededRandom';
import { bulkSlice } from '../../platform/timeSlice';

/** A weighted undirected graph to partition: node keys and `[from, to, weight]` edges. */
export interface LouvainInput {
  nodes: string[];
  edges: Array<[string, string, number]>;
  resolution: number;
  seed: number;
}

/** Partitions a graph by Louvain: node → community number. */
export type LouvainRunner = (input: LouvainInput) => Promise<Record<string, number>>;

/**
 * The input with its node keys replaced by their positions ("0", "1", …) and the way back for the partition.
 * graphology keeps a node's neighbours in plain objects, so an entity named `constructor` or `toString` looked
 * like an existing edge ("an edge linking … to "constructor" already exists") and failed the whole partition.
 */
function byPosition(input: LouvainInput): {
  input: LouvainInput;
  back: (mapping: Record<string, number>) => Record<string, number>;
} {
  const position = new Map(input.nodes.map((node, i) => [node, String(i)]));
  const at = (node: string) => position.get(node) ?? node;
  return {
    input: {
      ...input,
      nodes: input.nodes.map((_, i) => String(i)),
      edges: input.edges.map(([from, to, weight]) => [at(from), at(to), weight]),
    },
    back: (mapping) => {
      // No prototype, so an entity named `__proto__` is a key like any other.
      const out = Object.create(null) as Record<string, number>;
      input.nodes.forEach((node, i) => {
        if (Object.hasOwn(mapping, String(i))) out[node] = mapping[String(i)];
      });
      return out;
    },
  };
}

/** Louvain on the calling thread (tests, benches, small graphs). Seeded, so reproducible. */
export const inProcessLouvain: LouvainRunner = async (input) => {
  const keyed = byPosition(input);
  return keyed.back(runLouvain(keyed.input));
};

function runLouvain(input: LouvainInput): Record<string, number> {
  const graph = new Graph({ type: 'undirected' });
  for (const node of input.nodes) graph.addNode(node);
  for (const [from, to, weight] of input.edges) graph.addEdge(from, to, { weight });
  return louvain(graph, {
    getEdgeWeight: 'weight',
    resolution: input.resolution,
    rng: seededRandom(input.seed),
  });
}

/** Edges converted per task before the conversion yields to the event loop. */
const EDGES_PER_SLICE = 20_000;

/** A `LouvainInput` as the worker takes it: nodes by position, edges as typed arrays (transferred, not copied). */
interface PackedInput {
  count: number;
  from: Int32Array<ArrayBuffer>;
  to: Int32Array<ArrayBuffer>;
  weight: Float64Array<ArrayBuffer>;
  resolution: number;
  seed: number;
}

/**
 * Packs `input` for the worker, yielding every `EDGES_PER_SLICE` edges. A bulk ingest's rebuild of the communities
 * sends hundreds of thousands of edges: as `[string, string, number]` arrays, renaming them by position and cloning
 * them into the message held the loop for 0.3-1.4 s (bench/README.md, issue 37, stop 48); typed arrays are moved.
 */
async function pack(input: LouvainInput): Promise<PackedInput> {
  const position = new Map(input.nodes.map((node, i) => [node, i]));
  const at = (node: string) => {
    const found = position.get(node);
    if (found === undefined) throw new Error(`louvain: edge endpoint ${JSON.stringify(node)} is not a node`);
    return found;
  };
  const count = input.edges.length;
  const packed = {
    count: input.nodes.length,
    from: new Int32Array(count),
    to: new Int32Array(count),
    weight: new Float64Array(count),
    resolution: input.resolution,
    seed: input.seed,
  };
  for (let i = 0; i < count; i++) {
    if (i > 0 && i % EDGES_PER_SLICE === 0) await bulkSlice();
    const [from, to, weight] = input.edges[i];
    packed.from[i] = at(from);
    packed.to[i] = at(to);
    packed.weight[i] = weight;
  }
  return packed;
}

/**
 * Louvain on a worker thread, so community detection over a large graph never blocks the event loop. The
 * worker's code is plain JavaScript given to `new Worker(..., { eval: true })`, requiring graphology and the
 * Louvain package by the absolute paths this process resolved — so it runs the same from TypeScript sources
 * (tsx, jest) and from dist/. It builds the same graph as `inProcessLouvain` (nodes "0", "1", … in order, edges in
 * order), from typed arrays moved to it, and answers each node's community by position (-1: none). Jobs are queued
 * on one worker (its OS thread named `louvain`); `close()` ends it.
 */
export function workerLouvain(): LouvainRunner & { close(): Promise<void> } {
  const paths = {
    graph: require.resolve('graphology'),
    louvain: require.resolve('graphology-communities-louvain'),
  };
  const code = `
    const { parentPort } = require('node:worker_threads');
    try { require('node:fs').writeFileSync('/proc/thread-self/comm', 'louvain'); } catch {}
    const Graph = require(${JSON.stringify(paths.graph)});
    const louvain = require(${JSON.stringify(paths.louvain)});
    function rng(seed) {
      let s = seed >>> 0;
      return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
    }
    parentPort.on('message', ({ id, input }) => {
      try {
        const graph = new Graph({ type: 'undirected' });
        for (let i = 0; i < input.count; i++) graph.addNode(String(i));
        for (let i = 0; i < input.from.length; i++)
          graph.addEdge(String(input.from[i]), String(input.to[i]), { weight: input.weight[i] });
        const mapping = louvain(graph, { getEdgeWeight: 'weight', resolution: input.resolution, rng: rng(input.seed) });
        const communities = new Int32Array(input.count);
        for (let i = 0; i < input.count; i++)
          communities[i] = Object.hasOwn(mapping, String(i)) ? mapping[String(i)] : -1;
        parentPort.postMessage({ id, communities }, [communities.buffer]);
      } catch (error) {
        parentPort.postMessage({ id, error: String(error && error.message || error) });
      }
    });`;
  const worker = new Worker(code, { eval: true });
  worker.unref();
  const waiting = new Map<
    number,
    { resolve: (communities: Int32Array) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  worker.on('message', (message: { id: number; communities?: Int32Array; error?: string }) => {
    const job = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) job?.reject(new Error(`louvain worker: ${message.error}`));
    else job?.resolve(message.communities!);
  });
  worker.on('error', (error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  });
  const run = async (input: LouvainInput) => {
    const packed = await pack(input);
    const communities = await new Promise<Int32Array>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, input: packed }, [packed.from.buffer, packed.to.buffer, packed.weight.buffer]);
    });
    // No prototype, so an entity named `__proto__` is a key like any other.
    const mapping = Object.create(null) as Record<string, number>;
    input.nodes.forEach((node, i) => {
      if (communities[i] !== -1) mapping[node] = communities[i];
    });
    return mapping;
  };
  return Object.assign(run, {
    close: async () => {
      await worker.terminate();
    },
  });
}
