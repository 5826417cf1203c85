import { Schema, type Connection } from 'mongoose';
import { modelFor } from '../../models/modelFor';
import type { EnrichmentBacklog, EnrichmentEntry, EnrichmentJournal } from './enrichmentJournal';

interface StoredEntry {
  _id: string;
  chunkIds: string[];
  queuedAt: Date;
  version: number;
}

const entrySchema = new Schema<StoredEntry>(
  {
    _id: { type: String, required: true },
    chunkIds: { type: [String], default: [] },
    queuedAt: { type: Date, required: true },
    version: { type: Number, required: true },
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
 */
export class MongoEnrichmentJournal implements EnrichmentJournal {
  private readonly entries;

  constructor(connection: Connection) {
    this.entries = modelFor(connection, 'BrainEnrichment', entrySchema);
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
    const taken: EnrichmentEntry[] = [];
    let chunks = 0;
    // At most maxChunks entries can be taken (each owes one chunk or more): the engine need not read the rest.
    for await (const stored of this.entries.find().sort({ queuedAt: 1 }).limit(maxChunks).lean().cursor()) {
      const entry = toEntry(stored as StoredEntry);
      if (taken.length > 0 && chunks + entry.chunkIds.length > maxChunks) break;
      taken.push(entry);
      chunks += entry.chunkIds.length;
    }
    return taken;
  }

  async complete(documentId: string, version: number): Promise<void> {
    await this.entries.deleteOne({ _id: documentId, version });
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
