import type { Agenda } from 'agenda';
import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import { issuedSignatureModel, type IssuedSignatureRecord } from '../../models/IssuedSignature';
import type { EconomyCore } from './economyCore';
import { consumeHold, releaseHold } from './holds';
import { RECOVERY_AFTER_MS } from './operations';

/** Name of the Agenda job that completes interrupted operations and settles holds. */
export const ECONOMY_RECOVERY_JOB = 'economy-recovery';

/** What one recovery pass did. */
export interface RecoveryReport {
  operationsResumed: number;
  linesRecorded: number;
  holdsConsumed: number;
  holdsReleased: number;
}

/**
 * The economy's recovery pass (every 10 s, and once at start-up): completes operations left `pending` by a crash
 * (forwards: every leg is idempotent), writes ledger lines a crash left only on their account, and settles forge
 * holds: consumed once the signer's usage tracking saw the start signature used on chain, released once the hold
 * expired unused.
 */
export class EconomyRecovery {
  private readonly signatures: Model<IssuedSignatureRecord>;

  constructor(
    private readonly core: EconomyCore,
    connection: Connection,
    private readonly logger: Logger,
  ) {
    this.signatures = issuedSignatureModel(connection);
  }

  /** One pass; safe to run concurrently with live traffic and with itself. */
  async run(): Promise<RecoveryReport> {
    const report: RecoveryReport = {
      operationsResumed: 0,
      linesRecorded: 0,
      holdsConsumed: 0,
      holdsReleased: 0,
    };
    for (const id of await this.core.runner.stale()) {
      await this.core.runner.resume(id).catch((error: unknown) => {
        this.logger.error({ err: error, operation: id }, 'economy operation could not be resumed');
      });
      report.operationsResumed += 1;
    }
    const before = new Date(this.core.clock.now() - RECOVERY_AFTER_MS);
    const withLines = await this.core.accounts.find({ 'pending.at': { $lt: before } }, { pending: 1 }).lean();
    for (const account of withLines)
      for (const line of account.pending.filter((l) => l.at < before)) {
        await this.core.legs.record(line);
        report.linesRecorded += 1;
      }
    await this.settleHolds(report);
    if (report.operationsResumed + report.linesRecorded + report.holdsConsumed + report.holdsReleased > 0)
      this.logger.info({ report }, 'economy recovery');
    return report;
  }

  /** Registers the job, every 10 s. */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(ECONOMY_RECOVERY_JOB, async () => {
      await this.run();
    });
    await agenda.every('10 seconds', ECONOMY_RECOVERY_JOB);
  }

  private async settleHolds(report: RecoveryReport): Promise<void> {
    const now = new Date(this.core.clock.now());
    const holders = await this.core.accounts.find({ 'holds.0': { $exists: true } }, { holds: 1 }).lean();
    for (const account of holders)
      for (const hold of account.holds) {
        const signature = await this.signatures
          .findOne({ signatureHash: hold.id }, { used: 1 })
          .lean<Pick<IssuedSignatureRecord, 'used'>>();
        const settle = signature?.used
          ? () => consumeHold(this.core, account._id, hold.id, hold.amount)
          : hold.expiresAt < now
            ? () => releaseHold(this.core, account._id, hold.id)
            : undefined;
        if (!settle) continue;
        try {
          await settle();
          if (signature?.used) report.holdsConsumed += 1;
          else report.holdsReleased += 1;
        } catch (error) {
          // A concurrent pass settled it first (HOLD_NOT_FOUND); anything else is logged and retried next pass.
          this.logger.warn({ err: error, hold: hold.id }, 'economy hold not settled');
        }
      }
  }
}
