import type { Agenda } from 'agenda';
import type { AuditStores } from './auditLog';

/** The Agenda job that prunes the audit log. */
export const AUDIT_RETENTION_JOB = 'admin:audit-retention';

/** What one pruning run removed. */
export interface RetentionReport {
  cutoff: Date;
  events: number;
  signatures: number;
}

/**
 * Audit retention (AUDIT_RETENTION_DAYS): events older than the cutoff are deleted, and so are the signatures (and
 * their vectors) no remaining event carries. Runs hourly on a worker; each run is one ranged delete on the `at`
 * index, so a run after downtime catches up in one go.
 */
export class AuditRetention {
  constructor(
    private readonly stores: AuditStores,
    private readonly retentionDays: number,
  ) {}

  /** Deletes what is older than the retention period (by the clock). */
  async run(): Promise<RetentionReport> {
    const cutoff = new Date(this.stores.clock.now() - this.retentionDays * 86_400_000);
    const events = await this.stores.events.deleteMany({ at: { $lt: cutoff } });
    const stale = await this.stores.signatures.find({ last_seen: { $lt: cutoff } }, { _id: 1 }).lean();
    const sigs = stale.map((row) => row._id);
    if (sigs.length > 0) {
      await this.stores.vectors.remove(sigs);
      await this.stores.signatures.deleteMany({ _id: { $in: sigs } });
    }
    if (events.deletedCount > 0)
      this.stores.logger.info({ events: events.deletedCount, signatures: sigs.length }, 'audit log pruned');
    return { cutoff, events: events.deletedCount, signatures: sigs.length };
  }

  /** Defines the job and schedules it hourly. */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(AUDIT_RETENTION_JOB, async () => {
      await this.run();
    });
    await agenda.every('1 hour', AUDIT_RETENTION_JOB);
  }
}
