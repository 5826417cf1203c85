import { performance } from 'node:perf_hooks';
import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import {
  brainChunkModel,
  fromChunkRecord,
  toChunkRecord,
  type BrainChunkRecord,
} from '../../models/BrainChunk';
import {
  brainDocumentModel,
  fromDocumentRecord,
  toDocumentRecord,
  type BrainDocumentRecord,
} from '../../models/BrainDocument';
import {
  INDEX_NAMES,
  type ChunkRecord,
  type DocumentRecord,
  type IndexName,
} from '../../models/corpusRecords';
import type { ChunkLookup } from '../retrieval/chunkLookup';
import { UNRECORDED_INGESTER, type ChunkStore, type CorpusCounts, type DocumentWrite } from './chunkStore';

/** Chunks per bulk write of saveDocument. */
const CHUNK_WRITE_BATCH = 10;
/**
 * Rows per bulk write of saveDocuments: pieces of work for an in-process (embedded) engine that hold its event loop a
 * few ms each (a 50-chunk write ~2-3 ms); 10 paid the driver's and the engine's per-command cost five times as often.
 */
const BATCH_CHUNK_WRITE = 50;

/** How long the corpus counts are reused when nothing was written here (see `counts`). */
const COUNTS_TTL_MS = 1_000;

function perIndex(rows: { _id: string; n: number }[]): Record<IndexName, number> {
  const counts = Object.fromEntries(INDEX_NAMES.map((index) => [index, 0])) as Record<IndexName, number>;
  for (const row of rows) if (row._id in counts) counts[row._id as IndexName] = row.n;
  return counts;
}

/**
 * The brain's corpus in MongoDB (BrainDocument and BrainChunk models). MongoDB transactions need a replica
 * set, so a document write is ordered to be safe without one: chunks first, then the document (whose
 * `chunkIds` is the commit point), then the deletion of every chunk of the document it no longer lists.
 * A crash in between leaves unlisted chunks, which `allChunks()` ignores and the next ingest of the source
 * deletes.
 */
export class MongoChunkStore implements ChunkStore, ChunkLookup {
  private readonly documents;
  private readonly chunks;
  private cachedCounts?: { at: number; counts: Promise<CorpusCounts> };

  constructor(connection: Connection) {
    this.documents = brainDocumentModel(connection);
    this.chunks = brainChunkModel(connection);
  }

  /** Creates the models' indexes (call once at start-up). */
  async init(): Promise<void> {
    await Promise.all([this.documents.init(), this.chunks.init()]);
  }

  async findDocument(documentId: string): Promise<DocumentRecord | undefined> {
    const stored = await this.documents.findById(documentId).lean();
    return stored ? toDocumentRecord(stored) : undefined;
  }

  async saveDocument(write: DocumentWrite): Promise<void> {
    try {
      await this.writeDocument(write);
    } finally {
      this.cachedCounts = undefined;
    }
  }

  private async writeDocument({ document, upserts }: DocumentWrite): Promise<void> {
    // In slices: one bulk write of a large document's thousands of chunks is one long stall for an in-process
    // (embedded) server, and a message near the 48 MB limit for a real one.
    for (let start = 0; start < upserts.length; start += CHUNK_WRITE_BATCH)
      await this.upsertChunks(upserts.slice(start, start + CHUNK_WRITE_BATCH));
    const { id, ...fields } = document;
    await this.documents.replaceOne({ _id: id }, fields, { upsert: true });
    // Every chunk of the document not in the new version (also leftovers of an interrupted earlier write), found by
    // the documentId index and deleted by _id: a `$nin` of thousands of ids costs the embedded engine a long scan.
    const current = new Set(document.chunkIds);
    const stored = await this.chunks.find({ documentId: id }, { _id: 1 }).lean();
    const stale = stored.map((chunk) => chunk._id).filter((chunkId) => !current.has(chunkId));
    if (stale.length > 0) await this.chunks.deleteMany({ _id: { $in: stale } });
  }

  /**
   * Stores chunk records as they are, through the driver: the chunker made them complete and typed, and mongoose's
   * casting and validation of each replacement (a new document per chunk) were about a tenth of an ingest's CPU
   * (bench/README.md, issue 37). The stored rows are the same.
   */
  private async upsertChunks(chunks: readonly ChunkRecord[]): Promise<void> {
    const rows = this.chunks.collection as unknown as Collection<BrainChunkRecord>;
    await rows.bulkWrite(
      chunks.map((chunk) => {
        const row = fromChunkRecord(chunk);
        return { replaceOne: { filter: { _id: row._id }, replacement: row, upsert: true } };
      }),
      { ordered: false, ignoreUndefined: true },
    );
  }

  /** Records the vector space a document's chunks were embedded in (the vector backfill, after its upsert). */
  async setEmbeddingModel(documentIds: readonly string[], model: string): Promise<void> {
    if (documentIds.length === 0) return;
    await this.documents.updateMany({ _id: { $in: [...documentIds] } }, { $set: { embeddingModel: model } });
  }

  async findDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentRecord>> {
    if (documentIds.length === 0) return new Map();
    const stored = await this.documents.find({ _id: { $in: [...documentIds] } }).lean();
    return new Map(stored.map((doc) => [doc._id, toDocumentRecord(doc)]));
  }

  /**
   * A batch in the order saveDocument keeps for one: every chunk (bulk writes of BATCH_CHUNK_WRITE), then every
   * document (one bulk write: the commit point), then the stale chunks of documents that had a previous version.
   */
  async saveDocuments(writes: readonly DocumentWrite[]): Promise<void> {
    try {
      await this.writeDocuments(writes);
    } finally {
      this.cachedCounts = undefined;
    }
  }

  private async writeDocuments(writes: readonly DocumentWrite[]): Promise<void> {
    const upserts = writes.flatMap((write) => write.upserts);
    for (let start = 0; start < upserts.length; start += BATCH_CHUNK_WRITE)
      await this.upsertChunks(upserts.slice(start, start + BATCH_CHUNK_WRITE));
    // The documents in pieces too (the embedded engine runs each write command on our event loop); a crash between
    // pieces leaves earlier documents committed and later ones at their previous version, as per-document writes did.
    // Through the driver, as the chunks: the validator made each record complete (mongoose's casting of each
    // replacement was most of this write's own CPU).
    const rows = this.documents.collection as unknown as Collection<BrainDocumentRecord>;
    for (let start = 0; start < writes.length; start += BATCH_CHUNK_WRITE) {
      await rows.bulkWrite(
        writes.slice(start, start + BATCH_CHUNK_WRITE).map(({ document }) => {
          const row = fromDocumentRecord(document);
          return { replaceOne: { filter: { _id: row._id }, replacement: row, upsert: true } };
        }),
        { ordered: false },
      );
    }
    const stale = writes.flatMap((write) => write.removedChunkIds);
    for (let start = 0; start < stale.length; start += BATCH_CHUNK_WRITE)
      await this.chunks.deleteMany({ _id: { $in: stale.slice(start, start + BATCH_CHUNK_WRITE) } });
  }

  async *allChunks(): AsyncIterable<ChunkRecord> {
    const listed = new Set<string>();
    for await (const doc of this.documents.find({}, { chunkIds: 1 }).lean().cursor()) {
      for (const chunkId of doc.chunkIds) listed.add(chunkId);
    }
    for await (const chunk of this.chunks.find().lean().cursor()) {
      if (listed.has(chunk._id)) yield toChunkRecord(chunk);
    }
  }

  /**
   * The corpus counts, reused for up to `COUNTS_TTL_MS` and read again after any write of this store: they are
   * aggregates over every document and chunk, which the embedded engine runs on the event loop (tens of ms at 10k
   * chunks, growing with the corpus), and `/brain/stats` polled twice a second kept it busy (bench/README.md,
   * issue 37, stop 45). Another process's writes show within `COUNTS_TTL_MS`.
   */
  counts(): Promise<CorpusCounts> {
    const now = performance.now();
    const cached = this.cachedCounts;
    if (cached && now - cached.at < COUNTS_TTL_MS) return cached.counts;
    const entry = { at: now, counts: this.readCounts() };
    this.cachedCounts = entry;
    entry.counts.catch(() => {
      if (this.cachedCounts === entry) this.cachedCounts = undefined;
    });
    return entry.counts;
  }

  private async readCounts(): Promise<CorpusCounts> {
    // One pass over the documents for the three figures (each pass costs the embedded engine a copy of every document
    // on the event loop): documents per (index, ingester), and the chunks they list. Committed chunks only: those the
    // documents list (their commit point); the chunk rows of an ingest that failed before its documents were written
    // are not counted (the next ingest of the source deletes them).
    const [groups, latest] = await Promise.all([
      this.documents.aggregate<{ _id: { index?: string; by?: string | null }; n: number; chunks: number }>([
        {
          $group: {
            _id: { index: '$index', by: '$ingestedBy' },
            n: { $sum: 1 },
            chunks: { $sum: { $size: '$chunkIds' } },
          },
        },
      ]),
      this.documents
        .findOne({ ingestedAt: { $ne: null } }, { ingestedAt: 1, ingestedBy: 1 })
        .sort({ ingestedAt: -1 })
        .lean(),
    ]);
    const documents = perIndex([]);
    const chunks = perIndex([]);
    const byIngester = new Map<string, number>();
    for (const { _id, n, chunks: listed } of groups) {
      if (_id.index !== undefined && _id.index in documents) {
        documents[_id.index as IndexName] += n;
        chunks[_id.index as IndexName] += listed;
      }
      const by = _id.by ?? UNRECORDED_INGESTER;
      byIngester.set(by, (byIngester.get(by) ?? 0) + n);
    }
    return {
      documents,
      chunks,
      lastIngestAt: latest?.ingestedAt ?? null,
      lastIngestBy: latest?.ingestedBy ?? null,
      documentsByIngester: [...byIngester]
        .map(([ingestedBy, count]) => ({ ingestedBy, documents: count }))
        .sort((a, b) => b.documents - a.documents || a.ingestedBy.localeCompare(b.ingestedBy)),
    };
  }

  async documentsIngestedSince(since: Date): Promise<DocumentRecord[]> {
    const stored = await this.documents.find({ ingestedAt: { $gte: since } }).lean();
    return stored.map(toDocumentRecord);
  }

  async documentsEmbeddedOutside(models: readonly string[]): Promise<DocumentRecord[]> {
    // `$nin` with null also leaves out documents without a model (their vectors are owed, not stranded).
    const stored = await this.documents.find({ embeddingModel: { $nin: [...models, null] } }).lean();
    return stored.map(toDocumentRecord);
  }

  async getChunks(ids: readonly string[]): Promise<Map<string, ChunkRecord>> {
    const stored = ids.length === 0 ? [] : await this.chunks.find({ _id: { $in: [...ids] } }).lean();
    return new Map(stored.map((chunk) => [chunk._id, toChunkRecord(chunk)]));
  }
}
