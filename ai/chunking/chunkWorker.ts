import os from 'node:os';
import { nameThread } from '../../platform/threadName';
import { chunkFieldTerms } from '../fulltext/chunkFields';
import { chunkDocument, DEFAULT_CHUNKER_OPTIONS, type ChunkedDocument } from './documentChunker';
import type { ChunkBudget } from './sectionSplitter';
import type { ValidDocument } from './validation';

nameThread('chunker');

// This thread yields the CPU to the event loop's thread: on Linux a nice value set with pid 0 applies to the calling
// thread only. Where that is not allowed, it runs at normal priority.
try {
  os.setPriority(0, os.constants.priority.PRIORITY_LOW);
} catch {
  // Not permitted here (some containers): same priority as the event loop.
}

/**
 * One task of the chunking pool: validated documents (one large one, or several small ones of a batch sent together,
 * so a bulk ingest of small pages pays one round trip per batch) and the budget settings (the counter is cl100k_base).
 */
export interface ChunkTask {
  documents: ValidDocument[];
  budget: ChunkBudget;
  mergeBelowTokens: number;
}

/**
 * The chunking pool's worker (ChunkingPool runs it in worker_threads): the TypeScript parse, token counting and
 * splitting of each document, and each chunk's analysed fulltext fields, off the main event loop (the analysis was a
 * fifth of the event loop's time in a bulk ingest at 100k chunks). Pure; the results travel back by structured clone,
 * in order.
 */
export default function chunkInWorker(task: ChunkTask): ChunkedDocument[] {
  const options = {
    ...DEFAULT_CHUNKER_OPTIONS,
    budget: task.budget,
    mergeBelowTokens: task.mergeBelowTokens,
  };
  return task.documents.map((document) => {
    const chunked = chunkDocument(document, options);
    return { ...chunked, terms: chunked.chunks.map(chunkFieldTerms) };
  });
}
