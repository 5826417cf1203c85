import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock';
import { embeddingTextOf, type ChunkRecord, type DocumentRecord } from '../../models/corpusRecords';
import type { EmbeddingChain } from '../embeddings/embeddingChain';
import type { VectorIndex } from '../retrieval/vectorIndex';
import type { ChunkStore } from './chunkStore';
import type { EnrichmentJournal } from './enrichmentJournal';
import type { IngestActivity } from './ingestActivity';
import { RateMeter } from './rateMeter';

/**
 * Backfill settings. Defaults: 128 chunks per batch, 5 ms between batches, 2 s after a failed batch, 2 s between
 * looks while other processes hold every owed entry, and with `yieldTo`, at most 5 s of waiting per batch for running
 * ingests to end.
 */
export interface VectorBackfillOptions {
  batchChunks: number;
  pauseMs: number;
  /**
   * Running ingests to give way to (the brain's IngestActivity): before each batch the backfill waits until no
   * ingest runs, or at most `holdMs`, so during a bulk ingest it embeds one batch per `holdMs` (it never starves)
   * and the event loop goes to the findable path. Its state stays `running` meanwhile, so searches that read the
   * vectors still say `degraded`.
   */
  yieldTo?: Pick<IngestActivity, 'quiet'>;
  holdMs: number;
  retryMs: number;
  clock: Clock;
  logger: Logger;
  /**
   * Called after batches (at most once per `announceEveryMs`, and when the backlog empties): the brain invalidates
   * the search cache here, so a semantic answer cached while vectors were owed is not served after they arrive.
   */
  onVectors?: () => Promise<void>;
  announceEveryMs: number;
  /** How long to wait before looking again when every owed entry is claimed by another process. */
  claimWaitMs: number;
}

/** The backfill's figures for /brain/stats and /metrics. */
export interface VectorBackfillStats {
  state: 'idle' | 'running' | 'failing' | 'stopped';
  /** Chunks embedded since start-up. */
  done: number;
  /** Chunks per second over the last minute of work (0 when idle). */
  rate: number;
  failures: number;
}

/** What the backfill needs of the chunk store: documents, chunks, and recording the model once embedded. */
export type BackfillStore = Pick<ChunkStore, 'findDocuments' | 'getChunks' | 'setEmbeddingModel'>;

/**
 * Computes the vectors an ingest left owed (the EnrichmentJournal), in the background: one batch at a time of up to
 * `batchChunks` chunks across documents, oldest first, one embedding call and one vector upsert per batch, a pause
 * between batches so searches and the game keep the event loop. An entry is completed only after its vectors are
 * stored (and the document records the model), so a crash repeats at most one batch. Chunks a document no longer
 * lists are skipped; if the chain answers in another space than the document's earlier vectors, the document's other
 * chunks move with them (as the ingest used to do inline). A failing batch (every provider down) is retried after
 * `retryMs`; searches meanwhile answer from the vectors there are.
 */
export class VectorBackfill {
  private readonly options: VectorBackfillOptions;
  private running: Promise<void> | undefined;
  private wake = false;
  private stopped = false;
  private failures = 0;
  private unannounced = 0;
  private lastAnnounced = 0;
  private failing = false;
  private readonly meter: RateMeter;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly deps: {
      journal: EnrichmentJournal;
      store: BackfillStore;
      vectors: VectorIndex;
      embeddings: Pick<EmbeddingChain, 'embed'>;
    },
    options: Partial<VectorBackfillOptions> = {},
  ) {
    this.options = {
      batchChunks: 128,
      pauseMs: 5,
      holdMs: 5_000,
      retryMs: 2000,
      announceEveryMs: 1000,
      claimWaitMs: 2000,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      ...options,
    };
    this.meter = new RateMeter(() => this.options.clock.now());
  }

  /** Starts (or wakes) the drain loop; called after every ingest and once at start-up. */
  kick(): void {
    if (this.stopped) return;
    this.wake = true;
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
      if (this.wake && !this.stopped) this.kick();
      else for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
  }

  /** Resolves once nothing is owed (or the backfill stopped). */
  whenIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops after the batch in flight (pending work stays in the journal for the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    await this.deps.journal.release?.();
  }

  stats(): VectorBackfillStats {
    return {
      state: this.stopped ? 'stopped' : this.failing ? 'failing' : this.running ? 'running' : 'idle',
      done: this.meter.total,
      rate: this.meter.perSecond(),
      failures: this.failures,
    };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.wake = false;
      await this.options.yieldTo?.quiet(this.options.holdMs);
      if (this.stopped) return;
      const entries = await this.deps.journal.next(this.options.batchChunks);
      if (entries.length === 0) {
        // Nothing free, but other processes hold claims: wait for them (or for their claims to lapse).
        if (((await this.deps.journal.claimedElsewhere?.()) ?? 0) > 0) {
          await sleep(this.options.claimWaitMs);
          continue;
        }
        await this.announce(true);
        if (!this.wake) return;
        continue;
      }
      try {
        await this.runBatch(entries);
        this.failing = false;
        await this.announce(false);
        await sleep(this.options.pauseMs);
      } catch (error) {
        this.failures++;
        this.failing = true;
        this.options.logger.warn({ err: error }, 'brain vector backfill batch failed; retrying');
        await sleep(this.options.retryMs);
      }
    }
  }

  private async runBatch(entries: Awaited<ReturnType<EnrichmentJournal['next']>>): Promise<void> {
    // One look-up and one model update per batch (they were one per document, each waiting its turn on a loop
    // shared with the graph and RAPTOR rounds).
    const documents: Map<string, DocumentRecord> = await this.deps.store.findDocuments(
      entries.map((entry) => entry.documentId),
    );
    const owed = entries.flatMap((entry) => {
      const listed = new Set(documents.get(entry.documentId)?.chunkIds ?? []);
      return entry.chunkIds.filter((id) => listed.has(id));
    });
    const chunks = await this.deps.store.getChunks(owed);
    const batch = owed.flatMap((id) => (chunks.has(id) ? [chunks.get(id)!] : []));
    if (batch.length > 0) {
      const result = await this.deps.embeddings.embed(batch.map(embeddingTextOf));
      await this.store(result.model, batch, result.vectors);
      const unset: string[] = [];
      for (const document of documents.values()) {
        if (document.embeddingModel && document.embeddingModel !== result.model)
          await this.move(document, result.model);
        if (document.embeddingModel !== result.model) unset.push(document.id);
      }
      await this.deps.store.setEmbeddingModel(unset, result.model);
    }
    await this.deps.journal.completeMany(entries);
    this.meter.add(batch.length);
    this.unannounced += batch.length;
  }

  private async announce(idle: boolean): Promise<void> {
    const now = this.options.clock.now();
    if (this.unannounced === 0 || (!idle && now - this.lastAnnounced < this.options.announceEveryMs)) return;
    this.unannounced = 0;
    this.lastAnnounced = now;
    await this.options
      .onVectors?.()
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'brain vector backfill could not announce new vectors'),
      );
  }

  private async store(model: string, batch: ChunkRecord[], vectors: number[][]): Promise<void> {
    await this.deps.vectors.ensureSpace({ model, dimensions: vectors[0].length });
    await this.deps.vectors.upsert(
      model,
      batch.map((chunk, i) => ({
        chunkId: chunk.id,
        documentId: chunk.documentId,
        index: chunk.index,
        vector: vectors[i],
      })),
    );
  }

  /** The document's earlier vectors are in another space: embed its other chunks in `model` and drop the old ones. */
  private async move(document: DocumentRecord, model: string): Promise<void> {
    const chunks = await this.deps.store.getChunks(document.chunkIds);
    const all = document.chunkIds.flatMap((id) => (chunks.has(id) ? [chunks.get(id)!] : []));
    const moved = await this.deps.embeddings.embed(all.map(embeddingTextOf), [model]);
    await this.store(moved.model, all, moved.vectors);
    await this.deps.vectors.deleteChunks(document.chunkIds, document.embeddingModel!);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
