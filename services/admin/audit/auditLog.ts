import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import {
  auditEventModel,
  auditSignatureModel,
  type AuditEvent,
  type AuditEventRecord,
  type AuditRecorder,
  type AuditSignatureRecord,
} from '../../../models/AuditEvent';
import type { Clock } from '../../../platform/clock';
import { auditText, hourOf, redactDetails, signatureOf } from './auditText';
import type { SignatureVectors } from './signatureVectors';

/** Options of the audit log's writer. */
export interface AuditLogOptions {
  /** Longest an event waits in the buffer; default 250 ms. */
  flushMs?: number;
  /** A buffer this full is written at once; default 200. */
  maxBuffered?: number;
}

/** Filters of a read of the log (newest first). */
export interface AuditFilter {
  actor?: string;
  kind?: string;
  kinds?: string[];
  target?: string;
  from?: Date;
  to?: Date;
}

/** What the audit log is made of: its collections, the signature vectors, the clock and the logger. */
export interface AuditStores {
  events: Model<AuditEventRecord>;
  signatures: Model<AuditSignatureRecord>;
  vectors: SignatureVectors;
  clock: Clock;
  logger: Logger;
}

/**
 * The platform's append-only audit log (`audit_events`). `record` is synchronous and never throws: events are
 * buffered and written in small batches (one insertMany per `flushMs` or `maxBuffered` events), so auditing adds
 * no round trip to the audited call. Each event's details are redacted, its searchable text hashed into a
 * signature, and new signatures are embedded once for semantic search. Events buffered when the process dies
 * without a graceful stop are lost (at most `flushMs` of them); `close()` writes the rest. A failed write is logged
 * with the number of events lost, never thrown into a call.
 */
export class AuditLog implements AuditRecorder {
  private buffer: AuditEventRecord[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly knownSignatures = new Set<string>();
  private readonly flushMs: number;
  private readonly maxBuffered: number;

  constructor(
    readonly stores: AuditStores,
    options: AuditLogOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 250;
    this.maxBuffered = options.maxBuffered ?? 200;
  }

  /** Opens the log's collections on `connection` and ensures their indexes. */
  static async open(
    connection: Connection,
    deps: Omit<AuditStores, 'events' | 'signatures'>,
    options: AuditLogOptions = {},
  ): Promise<AuditLog> {
    const events = auditEventModel(connection);
    const signatures = auditSignatureModel(connection);
    await Promise.all([events.createIndexes(), signatures.createIndexes()]);
    return new AuditLog({ ...deps, events, signatures }, options);
  }

  record(event: AuditEvent): void {
    const details = redactDetails(event.details ?? {});
    const at = new Date(event.at ?? this.stores.clock.now());
    const stored = { ...event, at, target: event.target ?? '', details };
    this.buffer.push({ ...stored, hour: hourOf(at), sig: signatureOf(auditText(stored)) });
    if (this.buffer.length >= this.maxBuffered) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (and embeds new signatures); resolves when it is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Newest events first, matching `filter`. */
  async recent(filter: AuditFilter, limit: number): Promise<AuditEvent[]> {
    await this.flush();
    return this.stores.events
      .find(auditQuery(filter), { _id: 0, hour: 0, sig: 0 })
      .sort({ at: -1, _id: -1 })
      .limit(limit)
      .lean<AuditEvent[]>();
  }

  /** How many events are stored. */
  count(): Promise<number> {
    return this.stores.events.estimatedDocumentCount();
  }

  private async write(batch: AuditEventRecord[]): Promise<void> {
    try {
      await this.stores.events.collection.insertMany(
        batch.map((event) => ({ ...event })),
        { ordered: false },
      );
    } catch (error) {
      this.stores.logger.error({ err: error, lost: batch.length }, 'audit events could not be written');
      return;
    }
    try {
      await this.indexSignatures(batch);
    } catch (error) {
      // The events are stored; their signatures are indexed again with the next event that carries them.
      for (const event of batch) this.knownSignatures.delete(event.sig);
      this.stores.logger.warn({ err: error }, 'audit signatures could not be embedded');
    }
  }

  /** Counts each batch's signatures and embeds the ones never seen before. */
  private async indexSignatures(batch: AuditEventRecord[]): Promise<void> {
    const bySig = new Map<string, { event: AuditEventRecord; count: number; last: Date }>();
    for (const event of batch) {
      const entry = bySig.get(event.sig);
      if (entry) {
        entry.count += 1;
        if (event.at > entry.last) entry.last = event.at;
      } else bySig.set(event.sig, { event, count: 1, last: event.at });
    }
    await this.stores.signatures.bulkWrite(
      [...bySig].map(([sig, { event, count, last }]) => ({
        updateOne: {
          filter: { _id: sig },
          update: {
            $inc: { count },
            $max: { last_seen: last },
            $setOnInsert: { text: auditText(event), kind: event.kind, first_seen: event.at },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    const fresh = [...bySig.keys()].filter((sig) => !this.knownSignatures.has(sig));
    if (fresh.length === 0) return;
    await this.stores.vectors.index(
      fresh.map((sig) => {
        const { event } = bySig.get(sig) as { event: AuditEventRecord };
        return { sig, kind: event.kind, text: auditText(event) };
      }),
    );
    for (const sig of fresh) this.knownSignatures.add(sig);
  }
}

/** The MongoDB filter of an AuditFilter. */
export function auditQuery(filter: AuditFilter): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  if (filter.actor) query.actor = filter.actor;
  if (filter.kind) query.kind = filter.kind;
  else if (filter.kinds?.length) query.kind = { $in: filter.kinds };
  if (filter.target) query.target = filter.target;
  if (filter.from || filter.to) {
    query.at = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lte: filter.to } : {}) };
  }
  return query;
}
