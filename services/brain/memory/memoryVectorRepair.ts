import type { Agenda } from 'agenda';
import type { Collection } from 'mongodb';
import type { Logger } from 'pino';
import type { MemoryDocument } from '../../../models/Memory';
import type { Clock } from '../../../platform/clock';
import { GroupCommit } from '../../../platform/stores/groupCommit';

/**
 * The intent a remember records before it writes to two stores: the memory document is inserted with
 * `vector_pending: true`, the vector is upserted into Qdrant, then the flag is removed (batched with concurrent
 * remembers). A process killed in between leaves the flag: a retry of the same content that merges into that memory
 * finishes the vector before it answers `merged: true`, and the repair pass (at start and every minute) finishes
 * every memory whose flag is older than `REPAIR_AFTER_MS`. The flag is written through the driver, beside the
 * memory model's fields (`models/Memory.ts` does not declare it, so reads through mongoose never see it).
 */
export const PENDING_FIELD = 'vector_pending';

/** A memory flagged this long ago is not a remember still in flight: the repair pass finishes it. */
export const REPAIR_AFTER_MS = 30_000;

/** The job that finishes memories left without their vector (every minute, and at start). */
export const MEMORY_VECTOR_REPAIR_JOB = 'brain.memory.vectors.repair';

/** What finishing a memory's vector needs: its embedding and the vector upsert (the keeper's own). */
export interface VectorWriter {
  embed(content: string): Promise<{ model: string; vector: number[] }>;
  upsert(
    doc: Pick<MemoryDocument, '_id' | 'subject' | 'tier'>,
    model: string,
    vector: number[],
  ): Promise<void>;
}

type PendingDocument = MemoryDocument & { [PENDING_FIELD]?: boolean };

/** The flag's bookkeeping and the repair of memories a crash left without their vector. */
export class MemoryVectorRepair {
  /** Flags cleared together: one updateMany per batch of finished remembers. */
  private readonly clears: GroupCommit<string>;

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
  flagged(doc: MemoryDocument): MemoryDocument {
    return Object.assign(doc, { [PENDING_FIELD]: true });
  }

  /** The vector is stored: the flag goes (the field is removed from `doc` too, so answers never show it). */
  async stored(doc: MemoryDocument): Promise<void> {
    delete (doc as PendingDocument)[PENDING_FIELD];
    await this.clears.submit(doc._id);
  }

  /** Whether a memory read from the store still waits for its vector. */
  isPending(doc: object): boolean {
    return (doc as PendingDocument)[PENDING_FIELD] === true;
  }

  /** Embeds and upserts the vector of a flagged memory, then clears the flag. */
  async finish(doc: Pick<MemoryDocument, '_id' | 'subject' | 'tier' | 'content'>): Promise<void> {
    const { model, vector } = await this.writer.embed(doc.content);
    await this.writer.upsert(doc, model, vector);
    await this.memories.updateOne(
      { _id: doc._id },
      { $unset: { [PENDING_FIELD]: '' }, $set: { vector_model: model } },
    );
  }

  /** Finishes every memory flagged more than `REPAIR_AFTER_MS` ago, oldest first; answers how many. */
  async repair(limit = 500): Promise<number> {
    const before = new Date(this.clock.now() - REPAIR_AFTER_MS);
    const pending = await this.memories
      .find({ [PENDING_FIELD]: true, created_at: { $lte: before } } as never)
      .sort({ created_at: 1 })
      .limit(limit)
      .toArray();
    let repaired = 0;
    for (const doc of pending) {
      try {
        await this.finish(doc);
        repaired++;
      } catch (error) {
        this.logger.warn(
          { err: error, memory: doc._id },
          'memory vector repair failed; the next pass retries it',
        );
      }
    }
    if (repaired > 0) this.logger.info({ repaired }, 'memory vectors repaired');
    return repaired;
  }

  /** The repair job, every minute; run once at start by the process that registers it. */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(MEMORY_VECTOR_REPAIR_JOB, async () => {
      await this.repair();
    });
    await agenda.every('1 minute', MEMORY_VECTOR_REPAIR_JOB);
    await agenda.now(MEMORY_VECTOR_REPAIR_JOB);
  }
}
