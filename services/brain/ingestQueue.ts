import { retryAfter } from '../../platform/errors';
import { brainError } from './errors';

/** IngestQueue settings: ingests running at once (BRAIN_INGEST_CONCURRENCY) and waiting (BRAIN_INGEST_QUEUE). */
export interface IngestQueueOptions {
  concurrency: number;
  maxWaiting: number;
  /** The Retry-After of a refusal; default 5 s (a 1 MB ingest takes a few seconds). */
  retryAfterSeconds?: number;
}

/**
 * Bounds the ingests of this process (POST /brain/ingest and the MCP brain_ingest tool share it): at most
 * `concurrency` run, at most `maxWaiting` wait in arrival order, and any more are refused at once with 503
 * BRAIN_INGEST_BUSY and `Retry-After`, so a burst of large ingests queues a bounded amount of memory and CPU
 * instead of starving searches and the game.
 */
export class IngestQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: IngestQueueOptions) {}

  /** Ingests running and waiting now. */
  get figures(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `ingest` when a slot is free; throws 503 BRAIN_INGEST_BUSY when the queue is full. */
  async run<T>(ingest: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.maxWaiting) {
        throw brainError(
          'BRAIN_INGEST_BUSY',
          `${this.running} ingests are running and ${this.waiting.length} waiting; retry later`,
          retryAfter(this.options.retryAfterSeconds ?? 5),
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await ingest();
    } finally {
      // Hand the slot straight to the next waiter (running stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
