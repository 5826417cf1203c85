import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { MemoryVectorStats } from '../../../ai/corpus/corpusStats';
import type { MemoryKeeper } from './memoryKeeper';
import { PENDING_FIELD } from './memoryVectorRepair';

/** Memories re-embedded per round: one batch through the encoder's thread. */
const BATCH = 64;

/**
 * What `/brain/stats` shows of the re-embedding (`memory_vectors`): `state` is `idle` before it starts, `running`,
 * `done` (every memory has a vector in `model`) or `failed`; `reembedded` counts the memories this process wrote
 * since start-up; `pending` the ones found without a vector in `model` when the run started, less those done since.
 */
export type ReembeddingProgress = MemoryVectorStats;

/**
 * Puts every stored memory into the memories' current vector space in the background: memories remembered before
 * the space was configured (`vector_model` another model) are embedded 64 at a time on the encoder's threads, their
 * vectors written and their `vector_model` set; one round per turn of the event loop, so requests run between them.
 * Until a memory is done, recall still finds it by its words (it scores no meaning). Idempotent: a restart goes on
 * with what is left.
 */
export class MemoryReembedding {
  private progressValue: ReembeddingProgress;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly keeper: MemoryKeeper,
    private readonly model: string,
    private readonly logger: Logger,
  ) {
    this.progressValue = { model, state: 'idle', reembedded: 0, pending: 0, oldest_pending_at: null };
  }

  /** Starts the run in the background (once). */
  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      this.progressValue.state = 'failed';
      this.logger.error({ err: error }, 'memory re-embedding failed');
    });
  }

  /** A copy of the progress. */
  progress(): ReembeddingProgress {
    return { ...this.progressValue };
  }

  /** Resolves when the run has finished (or stopped). */
  async whenDone(): Promise<void> {
    await this.running;
  }

  /** Stops after the round in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  private async run(): Promise<void> {
    const { memories, options } = this.keeper;
    // Memories waiting for their first vector are the background pass's (memoryVectorRepair.ts), not this one's.
    const stale = { vector_model: { $ne: this.model }, [PENDING_FIELD]: { $ne: true } };
    this.progressValue.pending = await memories.countDocuments(stale);
    this.progressValue.state = 'running';
    if (this.progressValue.pending > 0)
      this.logger.info({ model: this.model, pending: this.progressValue.pending }, 'memory re-embedding');
    let after = '';
    while (!this.stopping) {
      const docs = await memories
        .find({ ...stale, _id: { $gt: after } }, { subject: 1, tier: 1, content: 1 })
        .sort({ _id: 1 })
        .limit(BATCH)
        .lean();
      if (docs.length === 0) break;
      after = docs[docs.length - 1]._id;
      const { vectors } = await this.keeper.embedInBackground(docs.map((doc) => doc.content));
      await options.vectors.upsert(
        this.model,
        docs.map((doc, i) => ({
          id: doc._id,
          subject: doc.subject,
          tier: doc.tier,
          vector: vectors[i],
        })),
      );
      await memories.updateMany(
        { _id: { $in: docs.map((doc) => doc._id) } },
        { $set: { vector_model: this.model } },
      );
      this.progressValue.reembedded += docs.length;
      this.progressValue.pending = Math.max(0, this.progressValue.pending - docs.length);
      await nextTurn();
    }
    if (!this.stopping) this.progressValue.state = 'done';
  }
}
