import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Agenda } from 'agenda';
import client from 'prom-client';
import type { Collection } from 'mongodb';
import type { Logger } from 'pino';
import type { MemoryDocument } from '../../../models/Memory';
import type { Clock } from '../../../platform/clock';
import { registry } from '../../../platform/metrics';
import { GroupCommit } from '../../../platform/stores/groupCommit';

/**
 * A stored memory whose vector is not written yet: inserted into MongoDB with `vector_pending: true`, cleared once
 * its vector is in Qdrant (written through the driver, beside the memory model's fields: `models/Memory.ts` does not
 * declare it, so reads through mongoose never see it). On the chain path a remember writes the vector before it
 * answers, so a flag left behind is a crash; on the neural path remember answers first and the vector follows in
 * the background (`later`). Either way the store holds the truth, and the repair pass finishes whatever is left.
 */
export const PENDING_FIELD = 'vector_pending';

/** A memory flagged this long ago is not a remember still in flight: the repair pass finishes it. */
export const REPAIR_AFTER_MS = 30_000;

/** The job that finishes memories left without their vector (every minute, and at start). */
export const MEMORY_VECTOR_REPAIR_JOB = 'brain.memory.vectors.repair';

/** Memories embedded together: one task of the encoder's thread, one upsert, one flag update. */
export const EMBED_BATCH = 64;

/**
 * Memory ids this process keeps waiting for their vector (about 100 bytes each). Beyond it they wait in the store,
 * flagged, and are read back oldest first once the queue has drained.
 */
export const QUEUE_LIMIT = 50_000;

/** How long a count of pending vectors answers `/brain/stats` and the gauges before it is taken again. */
const COUNT_TTL_MS = 5_000;

export const memoryVectorsPending = new client.Gauge({
  name: 'brain_memory_vectors_pending',
  help: 'Stored memories whose vector is not written yet (recalled by their words until then), as last counted',
  registers: [registry],
});

export const memoryVectorsPendingAge = new client.Gauge({
  name: 'brain_memory_vectors_pending_oldest_seconds',
  help: 'Age of the oldest stored memory still waiting for its vector (0 when none), as last counted',
  registers: [registry],
});

/** What writing memories' vectors needs: their embeddings (in one call) and the vector upsert. */
export interface VectorWriter {
  embedMany(contents: string[]): Promise<{ model: string; vectors: number[][] }>;
  upsert(
    model: string,
    points: { id: string; subject: string; tier: string; vector: number[] }[],
  ): Promise<void>;
}

/** Memories waiting for their vector: how many, and since when the oldest. */
export interface PendingVectors {
  count: number;
  oldest: Date | null;
}

type PendingDocument = MemoryDocument & { [PENDING_FIELD]?: boolean };

/**
 * The flag's bookkeeping, the background writing of vectors after remember (neural path), and the repair of memories
 * a crash left without their vector.
 */
export class MemoryVectorRepair {
  /** Flags cleared together: one updateMany per batch of finished remembers. */
  private readonly clears: GroupCommit<string>;
  /** Ids waiting for the background pass, oldest first. */
  private readonly queue: string[] = [];
  /** Ids queued or being written. */
  private readonly waiting = new Set<string>();
  /** Some memories did not fit the queue: once it drains, the store is read for them. */
  private overflowed = false;
  private draining?: Promise<void>;
  private stopped = false;
  private counted?: { at: number; value: Promise<PendingVectors> };
  /** Vectors written by the background pass and the repair since start-up. */
  written = 0;

  constructor(
    private readonly memories: Collection<PendingDocument>,
    private readonly writer: VectorWriter,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.clears = new GroupCommit<string>(
      async (ids) => {
        await this.memories.updateMany({ _id: { $in: ids } }, { $unset: { [PENDING_FIELD]: '' } });
        return ids.map(() => undefined);
      },
      { maxBatch: 256 },
    );
  }

  /** The document as inserted: flagged until its vector is stored. */
  flagged<T extends object>(doc: T): T {
    return Object.assign(doc, { [PENDING_FIELD]: true });
  }

  /** The vector is stored: the flag goes (the field is removed from `doc` too, so answers never show it). */
  async stored(doc: MemoryDocument): Promise<void> {
    this.unflag(doc);
    await this.clears.submit(doc._id);
    this.counted = undefined;
  }

  /** Removes the flag from an in-process copy (the stored one keeps it until its vector is written). */
  unflag(doc: object): void {
    delete (doc as PendingDocument)[PENDING_FIELD];
  }

  /** Whether a memory read from the store still waits for its vector. */
  isPending(doc: object): boolean {
    return (doc as PendingDocument)[PENDING_FIELD] === true;
  }

  /**
   * The vector of a flagged memory is written in the background: answers at once. Batches of `EMBED_BATCH`, one at a
   * time, oldest first; a memory that does not fit the queue stays flagged in the store and is read back later.
   */
  later(id: string): void {
    if (this.waiting.has(id) || this.stopped) return;
    if (this.queue.length >= QUEUE_LIMIT) {
      this.overflowed = true;
      return;
    }
    this.queue.push(id);
    this.waiting.add(id);
    this.counted = undefined;
    this.kick();
  }

  /** Writes the vectors of flagged memories now (a repeat of a remember a crash interrupted waits for it). */
  async finish(ids: readonly string[]): Promise<void> {
    await this.write(ids);
  }

  /** Resolves once the background pass has nothing left (queued, in flight or overflowed). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Stops the background pass after the batch in flight; what is left stays flagged for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.draining;
  }

  /** Memories waiting for their vector, counted in the store (at most every 5 s) and set on the gauges. */
  pending(): Promise<PendingVectors> {
    const now = performance.now();
    if (!this.counted || now - this.counted.at > COUNT_TTL_MS) {
      const value = this.count(this.clock.now());
      this.counted = { at: now, value };
      value.catch(() => {
        if (this.counted?.value === value) this.counted = undefined;
      });
    }
    return this.counted.value;
  }

  /**
   * Finishes every memory flagged more than `REPAIR_AFTER_MS` ago that this process is not already writing, oldest
   * first, in batches; answers how many. A batch that fails is logged and left for the next pass.
   */
  async repair(limit = 500, olderThanMs = REPAIR_AFTER_MS): Promise<number> {
    const ids = await this.flaggedIds(limit, olderThanMs);
    let repaired = 0;
    for (let i = 0; i < ids.length; i += EMBED_BATCH) {
      const batch = ids.slice(i, i + EMBED_BATCH);
      try {
        repaired += await this.write(batch);
      } catch (error) {
        this.logger.warn(
          { err: error, memories: batch.length },
          'memory vector repair failed; the next pass retries',
        );
      }
    }
    if (repaired > 0) this.logger.info({ repaired }, 'memory vectors repaired');
    this.counted = undefined;
    await this.pending();
    return repaired;
  }

  /**
   * The repair job, every minute; run once at start by the process that registers it. The start's pass takes every
   * flagged memory, however recent: what a killed process left is found at once instead of a minute later (a
   * remember still in flight in another process gets the same vector written twice, which changes nothing).
   */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define<{ all?: boolean }>(MEMORY_VECTOR_REPAIR_JOB, async (job) => {
      await this.repair(500, job.attrs.data?.all ? 0 : REPAIR_AFTER_MS);
    });
    await agenda.every('1 minute', MEMORY_VECTOR_REPAIR_JOB);
    await agenda.now(MEMORY_VECTOR_REPAIR_JOB, { all: true });
  }

  private kick(): void {
    if (this.draining || this.stopped) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  /** The background pass: batches from the queue until it is empty, then what overflowed, read from the store. */
  private async drain(): Promise<void> {
    // One turn first, so a burst of remembers goes out in one batch.
    await nextTurn();
    while (!this.stopped) {
      if (this.queue.length === 0 && this.overflowed) {
        this.overflowed = false;
        for (const id of await this.flaggedIds(QUEUE_LIMIT, 0)) {
          this.queue.push(id);
          this.waiting.add(id);
        }
      }
      if (this.queue.length === 0) return;
      const batch = this.queue.splice(0, EMBED_BATCH);
      try {
        await this.write(batch);
      } catch (error) {
        // They stay flagged: the repair pass (every minute) writes them.
        this.logger.warn(
          { err: error, memories: batch.length },
          'memory vectors not written; the repair pass retries',
        );
      } finally {
        for (const id of batch) this.waiting.delete(id);
      }
    }
  }

  /**
   * Embeds and upserts the vectors of the given memories that are still stored and flagged (read again: one forgotten
   * meanwhile gets no vector, one archived meanwhile gets its new tier), then clears their flags; answers how many.
   */
  private async write(ids: readonly string[]): Promise<number> {
    const docs = await this.memories
      .find({ _id: { $in: [...ids] }, [PENDING_FIELD]: true } as never, {
        projection: { subject: 1, tier: 1, content: 1 },
      })
      .toArray();
    if (docs.length === 0) return 0;
    const { model, vectors } = await this.writer.embedMany(docs.map((doc) => doc.content));
    await this.writer.upsert(
      model,
      docs.map((doc, i) => ({ id: doc._id, subject: doc.subject, tier: doc.tier, vector: vectors[i] })),
    );
    await this.memories.updateMany({ _id: { $in: docs.map((doc) => doc._id) } }, {
      $unset: { [PENDING_FIELD]: '' },
      $set: { vector_model: model },
    } as never);
    this.written += docs.length;
    // The count cached for /brain/stats is at most 5 s old, except after a change made here.
    this.counted = undefined;
    return docs.length;
  }

  /** Flagged memories created at least `olderThanMs` ago that this process is not writing, oldest first. */
  private async flaggedIds(limit: number, olderThanMs: number): Promise<string[]> {
    const before = new Date(this.clock.now() - olderThanMs);
    const docs = await this.memories
      .find({ [PENDING_FIELD]: true, created_at: { $lte: before } } as never, { projection: { _id: 1 } })
      .sort({ created_at: 1 })
      .limit(limit + this.waiting.size)
      .toArray();
    return docs
      .map((doc) => doc._id)
      .filter((id) => !this.waiting.has(id))
      .slice(0, limit);
  }

  private async count(now: number): Promise<PendingVectors> {
    const filter = { [PENDING_FIELD]: true } as never;
    const [count, oldest] = await Promise.all([
      this.memories.countDocuments(filter),
      this.memories.findOne(filter, { projection: { created_at: 1 }, sort: { created_at: 1 } }),
    ]);
    const result = { count, oldest: oldest?.created_at ?? null };
    memoryVectorsPending.set(count);
    memoryVectorsPendingAge.set(result.oldest ? Math.max(0, (now - result.oldest.getTime()) / 1000) : 0);
    return result;
  }
}
