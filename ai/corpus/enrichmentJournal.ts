/**
 * The durable record of enrichment still owed after an ingest: "searchable first, enriched after". An ingest stores
 * its chunks, updates the fulltext index and records here, per document, the chunk ids whose vectors are still to be
 * computed; the acknowledged answer says `pending: ["vectors", …]`. The VectorBackfill drains the journal in batches
 * in the background and removes each entry once the vectors are stored, so a crash or restart loses nothing: the next
 * start finds the entries still here and carries on.
 */
export interface EnrichmentEntry {
  documentId: string;
  /** Chunks of the document whose vectors are owed (the backfill skips any the document no longer lists). */
  chunkIds: string[];
  /** When the oldest still-owed part of this entry was recorded. */
  queuedAt: Date;
  /** Bumped by every record(), so completing an entry that changed meanwhile keeps it. */
  version: number;
}

export interface EnrichmentBacklog {
  /** Documents with vectors owed. */
  documents: number;
  /** Chunks with vectors owed. */
  chunks: number;
  /** When the oldest owed entry was recorded, null when none is. */
  oldestQueuedAt: Date | null;
}

/** Where owed enrichment is recorded: MongoDB in production (`MongoEnrichmentJournal`), memory in tests. */
export interface EnrichmentJournal {
  /** Records vectors owed for `chunkIds` of a document (merged with what it already owed). */
  record(documentId: string, chunkIds: readonly string[], at: Date): Promise<void>;
  /** record() for a batch of documents (one bulk write). */
  recordMany(
    entries: readonly { documentId: string; chunkIds: readonly string[] }[],
    at: Date,
  ): Promise<void>;
  /**
   * Owed entries, oldest first, up to about `maxChunks` chunks (at least one entry when any is owed and free), claimed
   * for this process where the journal is shared.
   */
  next(maxChunks: number): Promise<EnrichmentEntry[]>;
  /** Removes the entry if it is still at `version` (a newer record() keeps it for the next round). */
  complete(documentId: string, version: number): Promise<void>;
  /** complete() for each entry of a batch, as next() answered them. */
  completeMany(entries: readonly EnrichmentEntry[]): Promise<void>;
  /** The entry of one document, if vectors are owed for it. */
  find(documentId: string): Promise<EnrichmentEntry | undefined>;
  backlog(): Promise<EnrichmentBacklog>;
  /**
   * Entries other processes have claimed and are working on (a journal shared by several processes); the backfill
   * waits for them instead of calling itself idle. Absent: nothing is shared.
   */
  claimedElsewhere?(): Promise<number>;
  /** Gives up this process's claims (called when its backfill stops). */
  release?(): Promise<void>;
}

/** Takes entries oldest first until `maxChunks` chunks (always at least one). */
export function takeUpTo(entries: Iterable<EnrichmentEntry>, maxChunks: number): EnrichmentEntry[] {
  const taken: EnrichmentEntry[] = [];
  let chunks = 0;
  for (const entry of entries) {
    if (taken.length > 0 && chunks + entry.chunkIds.length > maxChunks) break;
    taken.push(entry);
    chunks += entry.chunkIds.length;
  }
  return taken;
}

/** An EnrichmentJournal in memory (tests, and the CLI's dry runs). */
export class InMemoryEnrichmentJournal implements EnrichmentJournal {
  private readonly entries = new Map<string, EnrichmentEntry>();

  async record(documentId: string, chunkIds: readonly string[], at: Date): Promise<void> {
    const previous = this.entries.get(documentId);
    this.entries.set(documentId, {
      documentId,
      chunkIds: [...new Set([...(previous?.chunkIds ?? []), ...chunkIds])],
      queuedAt: previous?.queuedAt ?? at,
      version: (previous?.version ?? 0) + 1,
    });
  }

  async recordMany(
    entries: readonly { documentId: string; chunkIds: readonly string[] }[],
    at: Date,
  ): Promise<void> {
    for (const entry of entries) await this.record(entry.documentId, entry.chunkIds, at);
  }

  async next(maxChunks: number): Promise<EnrichmentEntry[]> {
    const oldest = [...this.entries.values()].sort((a, b) => a.queuedAt.getTime() - b.queuedAt.getTime());
    return takeUpTo(oldest, maxChunks).map((entry) => ({ ...entry, chunkIds: [...entry.chunkIds] }));
  }

  async complete(documentId: string, version: number): Promise<void> {
    if (this.entries.get(documentId)?.version === version) this.entries.delete(documentId);
  }

  async completeMany(entries: readonly EnrichmentEntry[]): Promise<void> {
    for (const entry of entries) await this.complete(entry.documentId, entry.version);
  }

  async find(documentId: string): Promise<EnrichmentEntry | undefined> {
    return this.entries.get(documentId);
  }

  async backlog(): Promise<EnrichmentBacklog> {
    let chunks = 0;
    let oldest: Date | null = null;
    for (const entry of this.entries.values()) {
      chunks += entry.chunkIds.length;
      if (!oldest || entry.queuedAt < oldest) oldest = entry.queuedAt;
    }
    return { documents: this.entries.size, chunks, oldestQueuedAt: oldest };
  }
}
