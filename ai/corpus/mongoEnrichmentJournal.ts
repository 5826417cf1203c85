import { hostname } from 'node:os';
import { Schema, type Connection } from 'mongoose';
import { systemClock, type Clock } from '../../platform/clock';
import { modelFor } from '../../models/modelFor';
import type { EnrichmentBacklog, EnrichmentEntry, EnrichmentJournal } from './enrichmentJournal';

interface StoredEntry {
  _id: string;
  chunkIds: string[];
  queuedAt: Date;
  version: number;
  /** The journal (one per process) working on it, until `claimedUntil`; absent when nobody is. */
  claimedBy?: string;
  claimedUntil?: Date;
}

/** How long a claim holds: far longer than one batch takes, short enough that a dead process's work moves on soon. */
export const CLAIM_MS = 30_000;

const entrySchema = new Schema<StoredEntry>(
  {
    _id: { type: String, required: true },
    chunkIds: { type: [String], default: [] },
    queuedAt: { type: Date, required: true },
    version: { type: Number, required: true },
    claimedBy: { type: String },
    claimedUntil: { type: Date },
  },
  { versionKey: false, collection: 'brainenrichment' },
);
// The backfill takes the oldest first; /brain/stats reads the oldest.
entrySchema.index({ queuedAt: 1 });

const toEntry = (stored: StoredEntry): EnrichmentEntry => ({
  documentId: stored._id,
  // $push, not $addToSet: deduplicating thousands of ids of a large document against the array is quadratic work
  // that the embedded engine does on our event loop; a repeat (a re-ingest while owed) is dropped here instead.
  chunkIds: [...new Set(stored.chunkIds)],
  queuedAt: stored.queuedAt,
  version: stored.version,
});

/**
 * The enrichment journal in MongoDB (collection `brainenrichment`, one entry per document). record() is one
 * upsert ($push of the chunk ids, $min of the time, $inc of the version), written before the document's commit
 * point, so an acknowledged ingest always has its owed vectors on disk; an entry whose document never committed only
 * costs the backfill a look-up (it skips chunk ids the document does not list).
 *
 * Several processes share one journal: next() claims the entries it answers for `CLAIM_MS` (`claimedBy` this
 * journal's owner id, `claimedUntil`), skipping entries another live process claimed, so each batch is worked by
 * one process and the backlog spreads over all of them; a clean stop releases its claims (`release`), and a claim of
 * a process that died lapses and another takes it.
 * Two processes racing for one entry both may read it, but only one claim update matches it.
 */
export class MongoEnrichmentJournal implements EnrichmentJournal {
  private readonly entries;
  /** This process's name on its claims (one per process: a platform restarted in the same process takes them back). */
  readonly owner = `${hostname()}:${process.pid}`;

  constructor(
    connection: Connection,
    private readonly clock: Clock = systemClock,
  ) {
    this.entries = modelFor(connection, 'BrainEnrichment', entrySchema);
  }

  /** Entries nobody else holds now: unclaimed, claimed by this journal, or whose claim lapsed. */
  private free(now: Date) {
    return {
      $or: [{ claimedUntil: { $exists: false } }, { claimedUntil: { $lte: now } }, { claimedBy: this.owner }],
    };
  }

  async init(): Promise<void> {
    await this.entries.init();
  }

  async record(documentId: string, chunkIds: readonly string[], at: Date): Promise<void> {
    await this.entries.updateOne(
      { _id: documentId },
      { $push: { chunkIds: { $each: [...chunkIds] } }, $min: { queuedAt: at }, $inc: { version: 1 } },
      { upsert: true },
    );
  }

  async recordMany(
    entries: readonly { documentId: string; chunkIds: readonly string[] }[],
    at: Date,
  ): Promise<void> {
    // In pieces of 10: each write command of the embedded engine runs on our event loop.
    for (let start = 0; start < entries.length; start += 10) {
      await this.entries.bulkWrite(
        entries.slice(start, start + 10).map(({ documentId, chunkIds }) => ({
          updateOne: {
            filter: { _id: documentId },
            update: {
              $push: { chunkIds: { $each: [...chunkIds] } },
              $min: { queuedAt: at },
              $inc: { version: 1 },
            },
            upsert: true,
          },
        })),
        { ordered: false, throwOnValidationError: true },
      );
    }
  }

  async next(maxChunks: number): Promise<EnrichmentEntry[]> {
    const now = new Date(this.clock.now());
    const taken: EnrichmentEntry[] = [];
    let chunks = 0;
    // At most maxChunks entries can be taken (each owes one chunk or more): the engine need not read the rest.
    const free = this.entries.find(this.free(now)).sort({ queuedAt: 1 }).limit(maxChunks).lean().cursor();
    for await (const stored of free) {
      const entry = toEntry(stored as StoredEntry);
      if (taken.length > 0 && chunks + entry.chunkIds.length > maxChunks) break;
      taken.push(entry);
      chunks += entry.chunkIds.length;
    }
    if (taken.length === 0) return taken;
    const ids = taken.map((entry) => entry.documentId);
    await this.entries.updateMany(
      { _id: { $in: ids }, ...this.free(now) },
      { $set: { claimedBy: this.owner, claimedUntil: new Date(now.getTime() + CLAIM_MS) } },
    );
    // Another process may have claimed some between the read and the update: keep only what is ours.
    const ours = await this.entries.find({ _id: { $in: ids }, claimedBy: this.owner }, { _id: 1 }).lean();
    const mine = new Set(ours.map((entry) => entry._id));
    return taken.filter((entry) => mine.has(entry.documentId));
  }

  async complete(documentId: string, version: number): Promise<void> {
    const removed = await this.entries.deleteOne({ _id: documentId, version });
    // Recorded again meanwhile: owed still, and free for whoever comes next.
    if (removed.deletedCount === 0)
      await this.entries.updateOne(
        { _id: documentId, claimedBy: this.owner },
        { $unset: { claimedBy: '', claimedUntil: '' } },
      );
  }

  /** Gives up this process's claims (a clean stop), so another process need not wait for them to lapse. */
  async release(): Promise<void> {
    await this.entries.updateMany({ claimedBy: this.owner }, { $unset: { claimedBy: '', claimedUntil: '' } });
  }

  /** Entries other live processes are working on (the backfill waits for them rather than calling itself idle). */
  async claimedElsewhere(): Promise<number> {
    return this.entries.countDocuments({
      claimedBy: { $exists: true, $ne: this.owner },
      claimedUntil: { $gt: new Date(this.clock.now()) },
    });
  }

  async find(documentId: string): Promise<EnrichmentEntry | undefined> {
    const stored = await this.entries.findById(documentId).lean();
    return stored ? toEntry(stored as StoredEntry) : undefined;
  }

  async backlog(): Promise<EnrichmentBacklog> {
    const [totals] = await this.entries.aggregate<{ documents: number; chunks: number; oldest: Date | null }>(
      [
        {
          $group: {
            _id: null,
            documents: { $sum: 1 },
            chunks: { $sum: { $size: { $setUnion: ['$chunkIds', []] } } },
            oldest: { $min: '$queuedAt' },
          },
        },
      ],
    );
    return {
      documents: totals?.documents ?? 0,
      chunks: totals?.chunks ?? 0,
      oldestQueuedAt: totals?.oldest ?? null,
    };
  }
}
