import path from 'node:path';
import { LRUCache } from 'lru-cache';
import Piscina from 'piscina';
import type { Logger } from 'pino';
import { LocalHashEmbedder } from './localHashEmbedder';
import { LocalSemanticEmbedder } from './localSemanticEmbedder';
import { extractEntities, type ExtractedEntity } from '../graph/entityExtractor';
import type {
  EntitySource,
  OfflineEmbedderKind,
  OfflineEmbedResult,
  OfflineEntityResult,
  OfflineWorkerTask,
} from './offlineEmbedderWorker';
import type { EmbeddingProvider } from './provider';

/** OfflineEmbedderPool settings. Defaults: semantic, 384 dimensions, 1 thread, 64 texts a task. */
export interface OfflineEmbedderPoolOptions {
  /** `semantic` (local-sem-v1, the documents' default) or `hash` (local-hash-v1) [semantic]. */
  kind: OfflineEmbedderKind;
  /** Provider id in metrics and logs [`local`]. */
  id: string;
  dimensions: number;
  /** Worker threads (BRAIN_EMBEDDER_THREADS); 0 embeds everything on the calling thread, in slices [1]. */
  threads: number;
  /** Most texts a task: larger calls are cut into tasks of this many (the chain sends 64 at most) [64]. */
  batchSize: number;
  /**
   * A call of at most `inlineMaxTexts` texts [8] of at most `inlineMaxCharacters` characters in all [4,000] is embedded
   * on the calling thread (a query; RAPTOR's summaries of a few parents): a few ms at most, and no wait behind the
   * thread's queue.
   */
  inlineMaxTexts: number;
  inlineMaxCharacters: number;
  /** Inline texts whose vectors are kept (repeated queries) [512]. */
  cacheSize: number;
  idleTimeoutMs: number;
  logger?: Logger;
}

/** The worker module: compiled in a built server, through a tsx shim from TypeScript sources (jest, tsx). */
function workerFile(): string {
  return __filename.endsWith('.ts')
    ? path.join(__dirname, 'offlineEmbedderWorkerFromSource.cjs')
    : path.join(__dirname, 'offlineEmbedderWorker.js');
}

/**
 * The offline document embedder (local-sem-v1 or local-hash-v1) off the event loop (issue 36: embedding runs "in
 * worker threads, never on the event loop"; issue 37: a 20k ingest's vectors were the loop's longest busy stretches).
 * Calls of several texts (the vector backfill's batches, RAPTOR's nodes and summaries) go to a piscina pool of worker
 * threads, `batchSize` texts a task, computed by the same `embedOne` as the in-thread embedder, so the vectors are
 * identical (float64 both ways). A call of a few short texts (at most 8 and 4,000 characters: a query, about
 * 0.1-0.3 ms with the memos warm; RAPTOR's summaries of a few parents, whose rounds wait for each call) stays on
 * the calling thread, a single text's vector kept in a small LRU cache: a round trip to a thread, behind the
 * backfill's batches of 64, made RAPTOR's many sequential calls wait (the likely cause of an enrichment 1.5-2.4x as long in two of three
 * pairs, bench/README.md stop 47). The threads
 * start on the first batch (the semantic embedder loads WordNet in the thread, about 1.4 s, not on the loop), run
 * at normal priority, end after `idleTimeoutMs` idle and on `close()`. With `threads: 0`, after `close()`, or if a
 * task fails (a thread that cannot start), the texts are embedded on the calling thread in slices (embedInSlices).
 */
export class OfflineEmbedderPool implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;
  /** The in-thread embedder: queries, the fallback, and the reference the threads' vectors equal. */
  readonly inThread: LocalSemanticEmbedder | LocalHashEmbedder;
  private readonly options: OfflineEmbedderPoolOptions;
  private readonly cache: LRUCache<string, number[]>;
  private pool?: Piscina<OfflineWorkerTask, OfflineEmbedResult | OfflineEntityResult>;
  private closed = false;
  private warnedFallback = false;
  /** Texts embedded in threads and on the calling thread (tests and stats). */
  readonly counts = { threaded: 0, inline: 0 };

  constructor(options: Partial<OfflineEmbedderPoolOptions> = {}) {
    this.options = {
      kind: options.kind ?? 'semantic',
      id: options.id ?? 'local',
      dimensions: options.dimensions ?? 384,
      threads: options.threads ?? 1,
      batchSize: options.batchSize ?? 64,
      inlineMaxTexts: options.inlineMaxTexts ?? 8,
      inlineMaxCharacters: options.inlineMaxCharacters ?? 4000,
      cacheSize: options.cacheSize ?? 512,
      idleTimeoutMs: options.idleTimeoutMs ?? 600_000,
      logger: options.logger,
    };
    const settings = { id: this.options.id, dimensions: this.options.dimensions };
    this.inThread =
      this.options.kind === 'hash' ? new LocalHashEmbedder(settings) : new LocalSemanticEmbedder(settings);
    this.id = this.inThread.id;
    this.model = this.inThread.model;
    this.dimensions = this.inThread.dimensions;
    this.cache = new LRUCache({ max: this.options.cacheSize });
  }

  /** One unit vector per text, in order: a few short texts on this thread, anything more in the pool. */
  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    if (this.isSmall(texts)) {
      if (texts.length === 1) return [this.inlineOne(texts[0])];
      this.counts.inline += texts.length;
      return texts.map((text) => this.inThread.embedOne(text));
    }
    if (this.options.threads === 0 || this.closed) return this.inline(texts);
    const tasks: Promise<number[][]>[] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      tasks.push(this.runTask(texts.slice(start, start + this.options.batchSize)));
    }
    return (await Promise.all(tasks)).flat();
  }

  private isSmall(texts: string[]): boolean {
    if (texts.length > this.options.inlineMaxTexts) return false;
    let characters = 0;
    for (const text of texts) characters += text.length;
    return characters <= this.options.inlineMaxCharacters;
  }

  private inlineOne(text: string): number[] {
    const cached = this.cache.get(text);
    if (cached) return cached;
    this.counts.inline++;
    const vector = this.inThread.embedOne(text);
    this.cache.set(text, vector);
    return vector;
  }

  private inline(texts: string[]): Promise<number[][]> {
    this.counts.inline += texts.length;
    return this.inThread.embed(texts);
  }

  /**
   * Each chunk's graph entities (`extractEntities`), found in the pool's threads (one task per call) when there are
   * threads, on this thread otherwise: the graph's upkeep keeps only its bookkeeping on the event loop.
   */
  async extractEntities(chunks: readonly EntitySource[]): Promise<ExtractedEntity[][]> {
    const here = () => chunks.map((chunk) => extractEntities(chunk));
    if (chunks.length === 0) return [];
    if (this.options.threads === 0 || this.closed) return here();
    const task = {
      op: 'entities' as const,
      chunks: chunks.map(({ headingPath, symbols, text, kind }) => ({ headingPath, symbols, text, kind })),
    };
    const result = await this.runOrUndefined(task);
    return result ? (result as OfflineEntityResult).entities : here();
  }

  private pooled(): Piscina<OfflineWorkerTask, OfflineEmbedResult | OfflineEntityResult> {
    this.pool ??= new Piscina<OfflineWorkerTask, OfflineEmbedResult | OfflineEntityResult>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      // Starting a thread costs about 1.4 s of CPU (WordNet loads in it): keep it a while.
      idleTimeout: this.options.idleTimeoutMs,
    });
    return this.pool;
  }

  /** A task's result, or undefined when it failed (logged once; the caller does the work on this thread). */
  private async runOrUndefined(
    task: OfflineWorkerTask,
  ): Promise<OfflineEmbedResult | OfflineEntityResult | undefined> {
    try {
      return await this.pooled().run(task);
    } catch (error) {
      if (!this.closed && !this.warnedFallback) {
        this.warnedFallback = true;
        this.options.logger?.warn(
          { err: error },
          'offline embedder thread failed; working on the main thread',
        );
      }
      return undefined;
    }
  }

  private async runTask(texts: string[]): Promise<number[][]> {
    const task = { kind: this.options.kind, dimensions: this.dimensions, texts };
    const result = (await this.runOrUndefined(task)) as OfflineEmbedResult | undefined;
    if (!result) return this.inline(texts);
    this.counts.threaded += texts.length;
    const { dimensions } = this;
    const out: number[][] = [];
    for (let row = 0; row < texts.length; row++) {
      // A loop, not Array.from over a subarray (one iterator result per element).
      const vector = new Array<number>(dimensions);
      const offset = row * dimensions;
      for (let i = 0; i < dimensions; i++) vector[i] = result.vectors[offset + i];
      out.push(vector);
    }
    return out;
  }

  /** True while the pool has threads (started and not closed). */
  get started(): boolean {
    return this.pool !== undefined && this.pool.threads.length > 0;
  }

  /** Ends the threads (tasks in flight finish on this thread); later calls embed on this thread. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}
