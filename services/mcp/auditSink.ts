import type { Connection } from 'mongoose';
import type { Logger } from 'pino';

/** One audited action, in the shape of the platform's `audit_events` collection. */
export interface AuditEvent {
  at: Date;
  /** Who acted: `user:<id>`, `service`. */
  actor: string;
  /** What kind of action, e.g. `mcp.tool_call`. */
  kind: string;
  /** What it acted on, e.g. the tool name. */
  target: string;
  /** ok, refused, denied, invalid, rate_limited, unavailable, error. */
  outcome: string;
  ip: string | null;
  request_id: string | null;
  /** Kind-specific facts (arguments with secrets redacted, duration, error code); never secrets. */
  details: Record<string, unknown>;
}

/**
 * Where audited actions go. The MCP gateway records every tool call through it; the platform's audit log
 * (issue 21) can implement it and take over.
 */
export interface AuditSink {
  record(event: AuditEvent): void;
  /** Writes what is buffered. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Options of MongoAuditSink. */
export interface MongoAuditSinkOptions {
  /** Longest an event waits in the buffer; default 250 ms. */
  flushMs?: number;
  /** A buffer this full is written at once; default 200. */
  maxBuffered?: number;
}

/**
 * Audit events in MongoDB's `audit_events` collection, written behind the calls in small batches (one insertMany
 * per `flushMs` or `maxBuffered` events), so auditing adds no round trip to a tool call. Events buffered when the
 * process dies without a graceful stop are lost (at most `flushMs` of them); `close()` writes the rest. A failed
 * write is logged with the number of events lost, never thrown into a call.
 */
export class MongoAuditSink implements AuditSink {
  private buffer: AuditEvent[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly maxBuffered: number;

  private constructor(
    private readonly connection: Connection,
    private readonly logger: Logger,
    options: MongoAuditSinkOptions,
  ) {
    this.flushMs = options.flushMs ?? 250;
    this.maxBuffered = options.maxBuffered ?? 200;
  }

  /** Opens the sink and ensures the collection's indexes (newest first; by actor; by kind and target). */
  static async open(connection: Connection, logger: Logger, options: MongoAuditSinkOptions = {}) {
    const events = connection.collection('audit_events');
    await events.createIndexes([
      { key: { at: -1 } },
      { key: { actor: 1, at: -1 } },
      { key: { kind: 1, target: 1, at: -1 } },
    ]);
    return new MongoAuditSink(connection, logger, options);
  }

  record(event: AuditEvent): void {
    this.buffer.push(event);
    if (this.buffer.length >= this.maxBuffered) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() => this.write(batch));
    }
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Newest events first, optionally of one actor, kind or target. */
  async recent(filter: { actor?: string; kind?: string; target?: string }, limit: number) {
    const query = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
    await this.flush();
    return this.connection
      .collection<AuditEvent>('audit_events')
      .find(query, { projection: { _id: 0 } })
      .sort({ at: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }

  private async write(batch: AuditEvent[]): Promise<void> {
    try {
      await this.connection.collection('audit_events').insertMany(
        batch.map((event) => ({ ...event })),
        {
          ordered: false,
        },
      );
    } catch (error) {
      this.logger.error({ err: error, lost: batch.length }, 'audit events could not be written');
    }
  }
}

const SECRET_KEY =
  /token|secret|password|passphrase|private|mnemonic|api[-_]?key|authorization|cookie|signature/i;
const MAX_STRING = 256;
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;

/**
 * A copy of tool arguments fit for the audit log: values under secret-looking keys replaced by `[redacted]`, long
 * strings cut to 256 characters, deep or long structures summarised.
 */
export function redactArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redactArguments(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, entry]) => [
      key,
      SECRET_KEY.test(key) ? '[redacted]' : redactArguments(entry, depth + 1),
    ]),
  );
}
