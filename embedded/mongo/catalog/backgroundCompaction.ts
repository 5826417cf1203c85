/**
 * Compaction of a large collection without holding the event loop: its live records are serialised into the
 * replacement file in slices of about SLICE_MS, one event-loop turn apart, while writes go on to the live file (and
 * to the rewrite's tail, replayed after the snapshot, so the last record of a document wins on load). A document
 * changed after its slice was written appears twice in the new file; the next compaction drops the older copy.
 */
import { performance } from 'node:perf_hooks';
import type { CollectionFile } from '../storage/collectionFile';

/** Longest run of serialisation between two yields (ms). */
const SLICE_MS = 8;

/** What a background compaction reads and reports. */
export interface CompactionSource {
  file: CollectionFile;
  /** The Meta record, first in the new file. */
  meta: Buffer;
  /** Ids live when it began; `recordOf` answers undefined for one deleted since. */
  ids: string[];
  recordOf(id: string): Buffer | undefined;
  /** Called once the new file replaced the old one, or with the error that stopped it (the old file stays). */
  done(error?: Error): void;
}

/** Starts a compaction; `abort` stops it and removes its temporary file (close, drop). */
export function compactInBackground(source: CompactionSource): { abort(): void } {
  const rewrite = source.file.beginRewrite();
  let aborted = false;
  let next = 0;
  const step = () => {
    if (aborted) return;
    try {
      const deadline = performance.now() + SLICE_MS;
      const chunks: Buffer[] = next === 0 ? [source.meta] : [];
      while (next < source.ids.length && performance.now() < deadline) {
        for (const end = Math.min(next + 64, source.ids.length); next < end; next++) {
          const record = source.recordOf(source.ids[next]);
          if (record) chunks.push(record);
        }
      }
      rewrite.write(chunks);
      if (next < source.ids.length) setImmediate(step);
      else rewrite.finish((error) => source.done(error));
    } catch (error) {
      rewrite.abort();
      source.done(error as Error);
    }
  };
  setImmediate(step);
  return {
    abort: () => {
      aborted = true;
      rewrite.abort();
    },
  };
}
