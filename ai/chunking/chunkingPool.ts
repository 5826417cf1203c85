import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import Piscina from 'piscina';
import type { ChunkTask } from './chunkWorker';
import {
  chunkDocument,
  DEFAULT_CHUNKER_OPTIONS,
  type ChunkedDocument,
  type ChunkerOptions,
} from './documentChunker';
import type { ValidDocument } from './validation';

/** How the ingestor cuts validated documents into chunks. */
export interface DocumentChunking {
  chunk(document: ValidDocument): Promise<ChunkedDocument>;
  /** Chunks a batch's documents, in order (a pool may send small ones to a thread together). */
  chunkAll?(documents: readonly ValidDocument[]): Promise<ChunkedDocument[]>;
  /** Stops any threads; pending chunk calls reject. */
  close(): Promise<void>;
}

/**
 * Chunking on the calling thread, one document per turn of the event loop (other requests run between the
 * documents of a batch). For small documents and for tests with their own token counter.
 */
export function inlineChunking(options: ChunkerOptions = DEFAULT_CHUNKER_OPTIONS): DocumentChunking {
  return {
    chunk: async (document) => {
      await yieldToEventLoop();
      return chunkDocument(document, options);
    },
    close: async () => undefined,
  };
}

/** ChunkingPool settings. Defaults: 1 thread, documents under 8 KiB inline, threads end after 10 idle minutes. */
export interface ChunkingPoolOptions {
  /** Worker threads (BRAIN_CHUNKING_THREADS); 0 chunks every document inline. */
  threads: number;
  /** Documents smaller than this (UTF-8 bytes) are chunked inline: a round trip to a thread costs more. */
  inlineBelowBytes?: number;
  idleTimeoutMs?: number;
  budget?: ChunkerOptions['budget'];
  mergeBelowTokens?: number;
}

/** Small documents of a batch sent to a thread together: up to about this many UTF-8 bytes a task. */
const GROUP_BYTES = 64 * 1024;

/** Below this a document chunks in well under 50 ms even on a loaded machine (measured: 3-5 ms per KiB at load 8). */
export const DEFAULT_INLINE_BELOW_BYTES = 8 * 1024;

/**
 * The worker module: the compiled chunkWorker.js in a built server; from TypeScript sources (jest, tsx) a CommonJS
 * shim that registers tsx in the thread first, since worker threads do not inherit the parent's loader.
 */
function workerFile(): string {
  return __filename.endsWith('.ts')
    ? path.join(__dirname, 'chunkWorkerFromSource.cjs')
    : path.join(__dirname, 'chunkWorker.js');
}

/**
 * Chunking off the event loop (issue 13: a 1 MB document took 3-5 s of TypeScript parsing and cl100k token counting
 * on the main thread, stalling every request). Documents from `inlineBelowBytes` up run in a piscina pool of
 * worker_threads (at a lower CPU priority than the event loop's thread); smaller ones inline. Threads start on first
 * use (about 1.5 s: TypeScript and the BPE ranks load in the thread, not on the event loop) and end when idle.
 */
export class ChunkingPool implements DocumentChunking {
  private pool?: Piscina<ChunkTask, ChunkedDocument[]>;
  private readonly inline: DocumentChunking;
  private readonly inlineBelowBytes: number;
  private readonly budget: ChunkerOptions['budget'];
  private readonly mergeBelowTokens: number;

  constructor(private readonly options: ChunkingPoolOptions) {
    this.budget = options.budget ?? DEFAULT_CHUNKER_OPTIONS.budget;
    this.mergeBelowTokens = options.mergeBelowTokens ?? DEFAULT_CHUNKER_OPTIONS.mergeBelowTokens;
    this.inline = inlineChunking({
      ...DEFAULT_CHUNKER_OPTIONS,
      budget: this.budget,
      mergeBelowTokens: this.mergeBelowTokens,
    });
    this.inlineBelowBytes = options.inlineBelowBytes ?? DEFAULT_INLINE_BELOW_BYTES;
  }

  async chunk(document: ValidDocument): Promise<ChunkedDocument> {
    if (this.options.threads === 0 || Buffer.byteLength(document.text, 'utf8') < this.inlineBelowBytes) {
      return this.inline.chunk(document);
    }
    const [chunked] = await this.run([document]);
    return chunked;
  }

  /**
   * A batch's documents: large ones each in a task, small ones gathered into tasks of at least `inlineBelowBytes`
   * (up to `GROUP_BYTES`) so they leave the event loop too; a batch whose small documents are under
   * `inlineBelowBytes` in all chunks them inline. A bulk ingest of 50 pages of 4 KiB had chunked all of them on the
   * event loop, about a tenth of its time (bench/README.md, issue 37, stop 45).
   */
  async chunkAll(documents: readonly ValidDocument[]): Promise<ChunkedDocument[]> {
    const sizes = documents.map((document) => Buffer.byteLength(document.text, 'utf8'));
    const smallBytes = sizes.reduce((sum, size) => (size < this.inlineBelowBytes ? sum + size : sum), 0);
    if (this.options.threads === 0 || smallBytes < this.inlineBelowBytes) {
      const out: ChunkedDocument[] = [];
      for (const document of documents) out.push(await this.chunk(document));
      return out;
    }
    const groups: number[][] = [];
    let open: number[] = [];
    let openBytes = 0;
    documents.forEach((_, i) => {
      if (sizes[i] >= this.inlineBelowBytes) return void groups.push([i]);
      open.push(i);
      openBytes += sizes[i];
      if (openBytes >= GROUP_BYTES) {
        groups.push(open);
        open = [];
        openBytes = 0;
      }
    });
    if (open.length > 0) groups.push(open);
    const out: ChunkedDocument[] = new Array(documents.length);
    await Promise.all(
      groups.map(async (group) => {
        const chunked = await this.run(group.map((i) => documents[i]));
        group.forEach((i, k) => (out[i] = chunked[k]));
      }),
    );
    return out;
  }

  private run(documents: ValidDocument[]): Promise<ChunkedDocument[]> {
    this.pool ??= new Piscina<ChunkTask, ChunkedDocument[]>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      // Starting a thread costs about 1.5 s of CPU (TypeScript and the BPE ranks load in it): keep it a while.
      idleTimeout: this.options.idleTimeoutMs ?? 600_000,
    });
    return this.pool.run({ documents, budget: this.budget, mergeBelowTokens: this.mergeBelowTokens });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
