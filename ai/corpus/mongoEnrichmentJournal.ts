import { hostname } from 'node:os';
import type { Collection } from 'mongodb';
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

/** The backlog's totals (collection `brainenrichmenttotals`, one row `_id: "vectors"`), kept up to date by $inc. */
interface StoredTotals {
  _id: string;
  documents: number;
  chunks: number;
}

const totalsSchema = new Schema<StoredTotals>(
  {
    _id: { type: String, required: true },
    documents: { type: Number, default: 0 },
    chunks: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'brainenrichmenttotals' },
);
const TOTALS_ID = 'vectors';

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
 *
 * The backlog's totals (documents, distinct chunk ids) are a maintained counter (`brainenrichmenttotals`): record()
 * adds the documents and chunk ids it newly owes (one look-up of the batch's entries first), completing an entry
 * takes its ids off, so `/brain/stats` reads one row and the oldest entry by index instead of scanning the journal
 * (at 100k chunks owed, a scan the embedded engine ran on the event loop at every poll). Without transactions a crash
 * between an entry write and its $inc can leave the counter off by one batch: init() recounts it, and it is reset to
 * zero whenever the journal is found empty.
 */
export class MongoEnrichmentJournal implements EnrichmentJournal {
  private readonly entries;
  private readonly totals;
  /** This process's name on its claims (one per process: a platform restarted in the same process takes them back). */
  readonly owner = `${hostname()}:${process.pid}`;

  constructor(
    connection: Connection,
    private readonly clock: Clock = systemClock,
  ) {
    this.entries = modelFor(connection, 'BrainEnrichment', entrySchema);
    this.totals = modelFor(connection, 'BrainEnrichmentTotals', totalsSchema);
  }

  private get rows(): Collection<StoredEntry> {
    return this.entries.collection as unknown as Collection<StoredEntry>;
  }

  /** Entries nobody else holds now: unclaimed, claimed by this journal, or whose claim lapsed. */
  private free(now: Date) {
    return {
      $or: [{ claimedUntil: { $exists: false } }, { claimedUntil: { $lte: now } }, { claimedBy: this.owner }],
    };
  }

  /** Creates the indexes and recounts the backlog's totals (one scan at start-up; see the class comment). */
  async init(): Promise<void> {
    await Promise.all([this.entries.init(), this.totals.init()]);
    await this.recount();
  }

  async record(documentId: string, chunkIds: readonly string[], at: Date): Promise<void> {
    await this.recordMany([{ documentId, chunkIds }], at);
  }

  async recordMany(
    entries: readonly { documentId: string; chunkIds: readonly string[] }[],
    at: Date,
  ): Promise<void> {
    if (entries.length === 0) return;
    // What this batch newly owes: entries not in the journal yet, chunk ids they do not list yet.
    const ids = [...new Set(entries.map((entry) => entry.documentId))];
    const existing = await this.entries.find({ _id: { $in: ids } }, { chunkIds: 1 }).lean();
    const listed = new Map(existing.map((entry) => [entry._id, new Set(entry.chunkIds)]));
    let newDocuments = 0;
    let newChunks = 0;
    for (const { documentId, chunkIds } of entries) {
      let owed = listed.get(documentId);
      if (!owed) {
        listed.set(documentId, (owed = new Set()));
        newDocuments++;
      }
      for (const chunkId of chunkIds)
        if (!owed.has(chunkId)) {
          owed.add(chunkId);
          newChunks++;
        }
    }
    // In pieces of 50: each write command of the embedded engine runs on our event loop (a few ms each).
    for (let start = 0; start < entries.length; start += 50) {
      // Through the driver: mongoose's casting of each update was most of this write's own CPU.
      await this.rows.bulkWrite(
        entries.slice(start, start + 50).map(({ documentId, chunkIds }) => ({
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
        { ordered: false },
      );
    }
    await this.addToTotals(newDocuments, newChunks);
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
    const removed = await this.entries.findOneAndDelete({ _id: documentId, version }).lean();
    if (removed) await this.addToTotals(-1, -new Set(removed.chunkIds).size);
    else await this.unclaim(documentId);
  }

  /**
   * complete() for the entries of a batch as next() answered them, in one bulk delete and one update of the totals:
   * an entry deleted at the version next() read lists exactly the chunk ids it answered. An entry recorded again
   * meanwhile is not deleted (its version grew) and is freed for whoever comes next.
   */
  async completeMany(entries: readonly EnrichmentEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const removed = await this.rows.bulkWrite(
      entries.map((entry) => ({ deleteOne: { filter: { _id: entry.documentId, version: entry.version } } })),
      { ordered: false },
    );
    let kept = new Set<string>();
    if (removed.deletedCount < entries.length) {
      // Still there at a higher version: recorded again before the delete. (An entry deleted here and recorded anew
      // since starts again at version 1, not above the version read.)
      const versionOf = new Map(entries.map((entry) => [entry.documentId, entry.version]));
      const left = await this.rows
        .find({ _id: { $in: [...versionOf.keys()] } }, { projection: { version: 1 } })
        .toArray();
      kept = new Set(left.filter((row) => row.version > versionOf.get(row._id)!).map((row) => row._id));
      await this.rows.updateMany(
        { _id: { $in: [...kept] }, claimedBy: this.owner },
        { $unset: { claimedBy: '', claimedUntil: '' } },
      );
    }
    const done = entries.filter((entry) => !kept.has(entry.documentId));
    await this.addToTotals(-done.length, -done.reduce((n, entry) => n + entry.chunkIds.length, 0));
  }

  /** Recorded again meanwhile: owed still, and free for whoever comes next. */
  private async unclaim(documentId: string): Promise<void> {
    await this.entries.updateOne(
      { _id: documentId, claimedBy: this.owner },
      { $unset: { claimedBy: '', claimedUntil: '' } },
    );
  }

  private async addToTotals(documents: number, chunks: number): Promise<void> {
    if (documents === 0 && chunks === 0) return;
    await this.totals.updateOne({ _id: TOTALS_ID }, { $inc: { documents, chunks } }, { upsert: true });
  }

  /** Counts the journal (a scan) into the totals row. */
  private async recount(): Promise<EnrichmentBacklog> {
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
    const backlog = {
      documents: totals?.documents ?? 0,
      chunks: totals?.chunks ?? 0,
      oldestQueuedAt: totals?.oldest ?? null,
    };
    await this.totals.replaceOne(
      { _id: TOTALS_ID },
      { documents: backlog.documents, chunks: backlog.chunks },
      { upsert: true },
    );
    return backlog;
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

  /** The maintained totals and the oldest entry (by its index): two small reads, no scan (see the class comment). */
  async backlog(): Promise<EnrichmentBacklog> {
    const [totals, oldest] = await Promise.all([
      this.totals.findById(TOTALS_ID).lean(),
      this.entries.findOne({}, { queuedAt: 1 }).sort({ queuedAt: 1 }).lean(),
    ]);
    if (!oldest) {
      // Empty: whatever a crash left in the counter is wrong now.
      if (totals && (totals.documents !== 0 || totals.chunks !== 0))
        await this.addToTotals(-totals.documents, -totals.chunks);
      return { documents: 0, chunks: 0, oldestQueuedAt: null };
    }
    if (!totals) return this.recount();
    return {
      documents: Math.max(1, totals.documents),
      chunks: Math.max(0, totals.chunks),
      oldestQueuedAt: oldest.queuedAt,
    };
  }
}
