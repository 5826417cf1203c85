import type { ChunkRecord } from '../../models/corpusRecords';
import { nameThread } from '../../platform/threadName';
import { extractEntities, type ExtractedEntity } from '../graph/entityExtractor';
import { LocalHashEmbedder } from './localHashEmbedder';
import { LocalSemanticEmbedder } from './localSemanticEmbedder';

nameThread('offline-embed');

// This thread keeps the normal priority: at nice 10 (below normal) the other processes of the shared 2-core machine
// starved it (a 20k bench's enrichment took 526 s after findable against 167 s on the event loop, at load 10), and the
// loop's own latency is served by there being one such thread for two cores.

/** Which offline embedder: `semantic` (local-sem-v1) or `hash` (local-hash-v1). */
export type OfflineEmbedderKind = 'semantic' | 'hash';

/** What a chunk's entity extraction reads. */
export type EntitySource = Pick<ChunkRecord, 'headingPath' | 'symbols' | 'text' | 'kind'>;

/**
 * One task of the offline embedder's pool: texts embedded together (one round trip for a batch), or (`entities`)
 * chunks whose graph entities are found together.
 */
export type OfflineWorkerTask = OfflineEmbedTask | OfflineEntityTask;

export interface OfflineEntityTask {
  op: 'entities';
  chunks: EntitySource[];
}

export interface OfflineEmbedTask {
  op?: 'embed';
  kind: OfflineEmbedderKind;
  dimensions: number;
  texts: string[];
}

/** The vectors, `dimensions` floats each, row after row (float64: exactly the in-thread embedder's numbers). */
export interface OfflineEmbedResult {
  vectors: Float64Array;
}

/** Each chunk's entities, in order. */
export interface OfflineEntityResult {
  entities: ExtractedEntity[][];
}

let embedder: { kind: OfflineEmbedderKind; dimensions: number; embedOne(text: string): number[] } | undefined;

/** The thread's embedder, built on its first task (the semantic one loads WordNet then: about 1.4 s, 100 MB). */
function embedderFor(kind: OfflineEmbedderKind, dimensions: number) {
  if (embedder?.kind !== kind || embedder.dimensions !== dimensions) {
    const made =
      kind === 'hash' ? new LocalHashEmbedder({ dimensions }) : new LocalSemanticEmbedder({ dimensions });
    embedder = { kind, dimensions, embedOne: (text) => made.embedOne(text) };
  }
  return embedder;
}

/**
 * The offline embedder's worker (OfflineEmbedderPool runs it in worker_threads): the same `embedOne` as on the main
 * thread, over a batch of texts, with no slicing (nothing else runs on this thread). Deterministic, so a vector is the
 * same whichever thread computed it; the thread's term and word memos only save time. The graph's entity extraction
 * (`extractEntities`, pure) shares the thread.
 */
export default function workInThread(task: OfflineWorkerTask): OfflineEmbedResult | OfflineEntityResult {
  if (task.op === 'entities') return { entities: task.chunks.map((chunk) => extractEntities(chunk)) };
  const { embedOne } = embedderFor(task.kind, task.dimensions);
  const vectors = new Float64Array(task.texts.length * task.dimensions);
  task.texts.forEach((text, i) => vectors.set(embedOne(text), i * task.dimensions));
  return { vectors };
}
