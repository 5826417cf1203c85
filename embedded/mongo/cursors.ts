/**
 * Open cursors: the remaining documents of a find, aggregate or listing, served in batches by `getMore`.
 * Batches stop at the requested size or at ~16 MiB of BSON, as MongoDB's do. Cursors idle longer than the
 * timeout (MongoDB's default: 10 minutes) are closed by `expire`.
 */
import { calculateObjectSize, Long, type Document } from 'bson';
import type { Clock } from '../../platform/clock';
import { mongoError } from './errors';

/** Size MongoDB caps a reply batch at, leaving headroom under the 16 MiB message document limit. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;
/** MongoDB's first batch default when the client does not say. */
const DEFAULT_FIRST_BATCH = 101;

interface OpenCursor {
  ns: string;
  docs: Document[];
  position: number;
  lastUsed: number;
}

/** The `cursor` field of a find/aggregate/getMore reply. */
export interface CursorReply {
  id: Long;
  ns: string;
  firstBatch?: Document[];
  nextBatch?: Document[];
}

/** Registry of open cursors for one engine. */
export class CursorRegistry {
  private readonly cursors = new Map<number, OpenCursor>();
  private nextId = 1;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(clock: Clock, timeoutMs = 10 * 60 * 1000) {
    this.clock = clock;
    this.timeoutMs = timeoutMs;
  }

  /**
   * The first batch of `docs`; opens a cursor for the rest unless `singleBatch` or everything fits. A
   * `batchSize` of 0 opens a cursor and returns nothing yet, as MongoDB does.
   */
  open(ns: string, docs: Document[], batchSize: number | undefined, singleBatch = false): CursorReply {
    const size = batchSize === undefined ? DEFAULT_FIRST_BATCH : batchSize;
    const batch = takeBatch(docs, 0, size);
    if (singleBatch || batch.length >= docs.length) return { id: Long.ZERO, ns, firstBatch: batch };
    const id = this.nextId++;
    this.cursors.set(id, { ns, docs, position: batch.length, lastUsed: this.clock.now() });
    return { id: Long.fromNumber(id), ns, firstBatch: batch };
  }

  /** The next batch of an open cursor; closes it when exhausted. Throws CursorNotFound (43). */
  getMore(id: number, ns: string, batchSize: number | undefined): CursorReply {
    const cursor = this.cursors.get(id);
    if (!cursor) throw mongoError('CursorNotFound', `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw mongoError(
        'Unauthorized',
        `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
      );
    }
    const batch = takeBatch(cursor.docs, cursor.position, batchSize && batchSize > 0 ? batchSize : Infinity);
    cursor.position += batch.length;
    cursor.lastUsed = this.clock.now();
    const exhausted = cursor.position >= cursor.docs.length;
    if (exhausted) this.cursors.delete(id);
    return { id: exhausted ? Long.ZERO : Long.fromNumber(id), ns, nextBatch: batch };
  }

  /** Closes cursors; returns which ids were open and which were not. */
  kill(ids: number[]): { killed: number[]; notFound: number[] } {
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const id of ids) (this.cursors.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  /** Closes cursors idle for longer than the timeout. */
  expire(): void {
    const cutoff = this.clock.now() - this.timeoutMs;
    for (const [id, cursor] of this.cursors) if (cursor.lastUsed < cutoff) this.cursors.delete(id);
  }

  get openCount(): number {
    return this.cursors.size;
  }
}

function takeBatch(docs: Document[], from: number, size: number): Document[] {
  const batch: Document[] = [];
  let bytes = 0;
  for (let i = from; i < docs.length && batch.length < size; i++) {
    bytes += calculateObjectSize(docs[i]);
    if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
    batch.push(docs[i]);
  }
  return batch;
}
