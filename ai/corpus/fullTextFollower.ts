import pino, { type Logger } from 'pino';
import type { ChunkRecord } from '../../models/corpusRecords';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import type { ChunkStore } from './chunkStore';

/** Follower settings. Defaults: documents ingested up to 5 minutes before the watermark are re-checked. */
export interface FullTextFollowerOptions {
  /** Tolerated clock skew between processes: catching up re-reads this far behind the latest ingest seen. */
  skewMs: number;
  logger: Logger;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
}

/**
 * Keeps a process's in-memory BM25 index in step with the chunk store. `rebuild()` loads every stored
 * chunk at start-up; this process's own ingests update the index directly (Ingestor); `catchUp()` applies
 * documents other processes (or the ingest CLI) wrote since: it re-reads documents ingested since the
 * latest ingest seen (minus `skewMs`) and replaces those whose chunk list differs from the index's. The
 * search cache calls it when the shared cache generation moves, which every ingest does. Catch-ups run
 * one at a time.
 */
export class FullTextFollower {
  private watermark = new Date(0);
  private running: Promise<void> = Promise.resolve();
  private readonly options: FullTextFollowerOptions;

  constructor(
    private readonly store: ChunkStore,
    private readonly fullText: Pick<FullTextIndex, 'rebuild' | 'replaceDocumentInSlices' | 'chunkIdsOf'>,
    options: Partial<FullTextFollowerOptions> = {},
  ) {
    this.options = { skewMs: 5 * 60_000, logger: pino({ level: 'silent' }), ...options };
  }

  /** Loads every stored chunk into the index; returns how many. */
  async rebuild(): Promise<number> {
    const { lastIngestAt } = await this.store.counts();
    const chunks: ChunkRecord[] = [];
    for await (const chunk of this.store.allChunks()) chunks.push(chunk);
    this.fullText.rebuild(chunks);
    this.watermark = lastIngestAt ?? new Date(0);
    return chunks.length;
  }

  /** Applies documents ingested elsewhere since the last catch-up; returns how many were replaced. */
  catchUp(): Promise<number> {
    const next = this.running.then(() => this.applyChanges());
    this.running = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async applyChanges(): Promise<number> {
    const since = new Date(this.watermark.getTime() - this.options.skewMs);
    let replaced = 0;
    for (const doc of await this.store.documentsIngestedSince(since)) {
      if (doc.ingestedAt && doc.ingestedAt > this.watermark) this.watermark = doc.ingestedAt;
      if (sameIds(this.fullText.chunkIdsOf(doc.id), doc.chunkIds)) continue;
      const chunks = await this.store.getChunks(doc.chunkIds);
      await this.fullText.replaceDocumentInSlices(
        doc.id,
        doc.chunkIds.flatMap((id) => (chunks.has(id) ? [chunks.get(id)!] : [])),
      );
      replaced++;
    }
    if (replaced > 0) this.options.logger.info({ replaced }, 'fulltext index caught up with other ingests');
    return replaced;
  }
}
