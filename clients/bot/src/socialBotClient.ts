import { createForgeApiClient, type ForgeApiClient } from '../../api';
import type { BotConfig } from './config';
import { DiskQueue } from './diskQueue';
import type { PlatformEvents, SentEvents, SyncBatch, SyncPlatform, SyncResult } from './events';

/** Most events the platform takes in one batch. */
export const MAX_BATCH_EVENTS = 500;

/** Options of a SocialBotClient. */
export interface SocialBotClientOptions<P extends SyncPlatform> {
  config: BotConfig;
  platform: P;
  /** Directory of the on-disk queue (one per bot instance). */
  queueDir: string;
  /** Events per batch; default 100, at most 500. */
  batchSize?: number;
  /** Buffered events are sent at least this often once `start()` was called; default 2,000 ms. */
  flushIntervalMs?: number;
  /** Retries of one batch per drain, with exponential backoff from `retryBaseMs` (500) up to `retryMaxMs` (30,000). */
  retries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Test seams: the HTTP client (default `globalThis.fetch`) and the backoff wait. */
  fetch?: (input: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  /** Called with each accepted batch's answer (gaps the platform saw are in it). */
  onResult?: (result: SyncResult) => void;
  /** Called when the platform refuses a batch as invalid (4xx); the batch is moved aside, not resent. */
  onRejected?: (seq: number, status: number, body: unknown) => void;
}

/** What one drain did. */
export interface DrainReport {
  delivered: number;
  rejected: number;
  /** Batches still on disk (the platform could not be reached). */
  pending: number;
}

/** A status the platform answers while it cannot take the batch now; anything else 4xx is a refusal. */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Sends a bot's events to the platform's sync route: events are buffered, cut into batches with sequence numbers,
 * written to the on-disk queue before the first attempt, posted in order with retries and backoff, and removed from
 * disk once the platform answered. While the platform is down they stay on disk, survive a bot restart and go out
 * on the next drain; the platform's idempotency by (bot, seq) makes a batch resent after a lost answer harmless.
 * With BRAIN_ENABLED off the client records nothing.
 */
export class SocialBotClient<P extends SyncPlatform> {
  private buffer: SentEvents[P][] = [];
  /** Flushes and drains run one after another, never interleaved (sequence numbers, files, order). */
  private serial: Promise<unknown> = Promise.resolve();
  /** A flush queued by `record` that has not started cutting yet (one is enough). */
  private autoFlushQueued = false;
  private timer?: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly api: ForgeApiClient;
  private readonly sleep: (ms: number) => Promise<void>;

  private constructor(
    private readonly options: SocialBotClientOptions<P>,
    private readonly queue: DiskQueue<SyncBatch<SentEvents[P]>> | null,
  ) {
    this.batchSize = Math.min(MAX_BATCH_EVENTS, Math.max(1, options.batchSize ?? 100));
    this.api = createForgeApiClient({
      baseUrl: options.config.apiUrl,
      token: options.config.serviceToken,
      fetch: options.fetch,
    });
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Opens the client and its queue (batches left by an earlier run are sent on the next drain). */
  static async open<P extends SyncPlatform>(options: SocialBotClientOptions<P>): Promise<SocialBotClient<P>> {
    const queue = options.config.enabled
      ? await DiskQueue.open<SyncBatch<SentEvents[P]>>(options.queueDir)
      : null;
    return new SocialBotClient(options, queue);
  }

  /** Buffers one event (stamped now when it has no `at`); a full buffer is cut into a batch and sent. */
  record(event: PlatformEvents[P]): void {
    if (!this.queue) return;
    this.buffer.push({ ...event, at: event.at ?? new Date().toISOString() } as SentEvents[P]);
    if (this.buffer.length < this.batchSize || this.autoFlushQueued) return;
    this.autoFlushQueued = true;
    void this.inTurn(async () => {
      this.autoFlushQueued = false;
      await this.cutBatches();
      return this.deliverPending();
    }).catch(() => undefined);
  }

  /** Cuts the buffered events into batches on disk, then delivers everything pending. */
  flush(): Promise<DrainReport> {
    return this.inTurn(async () => {
      await this.cutBatches();
      return this.deliverPending();
    });
  }

  /** Delivers the batches on disk in order; stops at the first the platform cannot take now. */
  drain(): Promise<DrainReport> {
    return this.inTurn(() => this.deliverPending());
  }

  private inTurn(task: () => Promise<DrainReport>): Promise<DrainReport> {
    if (!this.queue) return Promise.resolve({ delivered: 0, rejected: 0, pending: 0 });
    const run = this.serial.then(task);
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async cutBatches(): Promise<void> {
    const queue = this.queue as DiskQueue<SyncBatch<SentEvents[P]>>;
    while (this.buffer.length > 0) {
      const events = this.buffer.splice(0, this.batchSize);
      const seq = await queue.takeSeq();
      await queue.put({
        bot_instance_id: this.options.config.botInstanceId,
        seq,
        sent_at: new Date().toISOString(),
        events,
      });
    }
  }

  /** Flushes every `flushIntervalMs` (and so retries what is on disk) until `close()`. */
  start(): void {
    this.timer ??= setInterval(
      () => void this.flush().catch(() => undefined),
      this.options.flushIntervalMs ?? 2_000,
    );
    this.timer.unref();
  }

  /** Stops the timer and tries a last flush; what cannot be delivered stays on disk for the next run. */
  async close(): Promise<DrainReport> {
    clearInterval(this.timer);
    this.timer = undefined;
    return this.flush();
  }

  private async deliverPending(): Promise<DrainReport> {
    const queue = this.queue as DiskQueue<SyncBatch<SentEvents[P]>>;
    const batches = await queue.pending();
    const report: DrainReport = { delivered: 0, rejected: 0, pending: batches.length };
    for (const batch of batches) {
      const outcome = await this.send(batch);
      if (outcome === 'retry-later') break;
      if (outcome === 'delivered') {
        await queue.delivered(batch.seq);
        report.delivered += 1;
      } else {
        await queue.reject(batch.seq);
        report.rejected += 1;
      }
      report.pending -= 1;
    }
    return report;
  }

  /** Posts one batch with retries: delivered, rejected (a 4xx refusal), or retry-later (unreachable, busy). */
  private async send(batch: SyncBatch<SentEvents[P]>): Promise<'delivered' | 'rejected' | 'retry-later'> {
    const retries = this.options.retries ?? 4;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await this.sleep(this.backoff(attempt));
      // A network error, or an answer that is not JSON (a proxy's page), is retried like a busy platform.
      const answer = await postSyncBatch(this.api, this.options.platform, batch).catch(() => null);
      if (!answer) continue;
      if (answer.response.ok) {
        if (answer.data) this.options.onResult?.(answer.data);
        return 'delivered';
      }
      if (!RETRYABLE.has(answer.response.status)) {
        this.options.onRejected?.(batch.seq, answer.response.status, answer.error);
        return 'rejected';
      }
    }
    return 'retry-later';
  }

  /** Exponential backoff: base × 2^(attempt-1), capped. */
  private backoff(attempt: number): number {
    const base = this.options.retryBaseMs ?? 500;
    return Math.min(this.options.retryMaxMs ?? 30_000, base * 2 ** (attempt - 1));
  }
}

/** Posts a batch to its platform's sync route through the generated client (the body is checked by the compiler). */
function postSyncBatch<P extends SyncPlatform>(
  api: ForgeApiClient,
  platform: P,
  batch: SyncBatch<SentEvents[P]>,
) {
  return platform === 'minecraft'
    ? api.POST('/social/brain/minecraft/sync', { body: batch as SyncBatch<SentEvents['minecraft']> })
    : api.POST('/social/brain/discord/sync', { body: batch as SyncBatch<SentEvents['discord']> });
}
