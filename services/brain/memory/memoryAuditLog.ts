import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import {
  memoryAuditModel,
  type MemoryAuditAction,
  type MemoryAuditDocument,
} from '../../../models/MemoryAudit';
import type { Clock } from '../../../platform/clock';
import type { AuditEvent } from '../../../models/AuditEvent';

/** The platform audit log as this area uses it (services/admin/audit implements it; `models/AuditEvent.ts` shape). */
export interface AuditPort {
  record(event: AuditEvent): void;
}

/** Who acted on which subject's memories, for one audit record. */
export interface MemoryAccess {
  actor: string;
  subject: string;
  action: MemoryAuditAction;
  memoryIds?: readonly string[];
  count?: number;
  requestId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/** Filters of GET /brain/security/audit. */
export interface AuditQuery {
  subject?: string;
  actor?: string;
  action?: MemoryAuditAction;
  since?: Date;
  until?: Date;
  limit: number;
}

/** Actions that also go to the platform audit log (memory erasure and security actions, DESIGN "Audit"). */
const PLATFORM_AUDITED = new Set<MemoryAuditAction>(['forget', 'erase', 'export', 'scan', 'redact']);
const MAX_IDS = 100;

/**
 * Memory access records (collection `memoryaudits`): every remember, recall, read, list, forget and security
 * action, never content. Written behind the calls in small batches (at most 100 ms or 100 records), flushed before
 * a read; forget, erase and security actions also go to the platform audit port when one is given.
 */
export class MemoryAuditLog {
  readonly model: Model<MemoryAuditDocument>;
  private buffer: MemoryAuditDocument[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    mongo: Connection,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly audit?: AuditPort,
  ) {
    this.model = memoryAuditModel(mongo);
  }

  async init(): Promise<void> {
    await this.model.init();
  }

  /** Records an access. */
  record(access: MemoryAccess): void {
    const at = new Date(this.clock.now());
    const ids = access.memoryIds ?? [];
    this.buffer.push({
      at,
      actor: access.actor,
      subject: access.subject,
      action: access.action,
      memory_ids: ids.slice(0, MAX_IDS),
      count: access.count ?? ids.length,
      request_id: access.requestId ?? null,
      details: access.details ?? {},
    });
    if (PLATFORM_AUDITED.has(access.action)) {
      this.audit?.record({
        at,
        actor: access.actor,
        kind: `brain.memory.${access.action}`,
        target: access.subject,
        outcome: 'ok',
        ip: access.ip ?? null,
        request_id: access.requestId ?? null,
        details: { count: access.count ?? ids.length, memory_ids: ids.slice(0, MAX_IDS), ...access.details },
      });
    }
    if (this.buffer.length >= 100) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), 100);
  }

  /** Writes what is buffered. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(async () => {
        try {
          await this.model.insertMany(batch, { ordered: false });
        } catch (error) {
          this.logger.error({ err: error, lost: batch.length }, 'memory audit records could not be written');
        }
      });
    }
    return this.writing;
  }

  /** Newest records first, filtered; `before` pages on (records strictly older than that time). */
  async query(filter: AuditQuery) {
    await this.flush();
    const query: Record<string, unknown> = {};
    if (filter.subject) query.subject = filter.subject;
    if (filter.actor) query.actor = filter.actor;
    if (filter.action) query.action = filter.action;
    if (filter.since || filter.until) {
      query.at = {
        ...(filter.since ? { $gte: filter.since } : {}),
        ...(filter.until ? { $lt: filter.until } : {}),
      };
    }
    return this.model.find(query).sort({ at: -1, _id: -1 }).limit(filter.limit).lean();
  }
}
