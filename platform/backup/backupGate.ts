import type { Collection, Connection } from 'mongoose';
import type { Clock } from '../clock';

/** What work that must not overlap a backup (memory consolidation) waits on. */
export interface BackupGate {
  /** Resolves once no backup is running (at once when none is). */
  waitForIdle(): Promise<void>;
}

/** Another process holds the gate: a backup is already running. */
export class BackupAlreadyRunningError extends Error {
  constructor(readonly holder: string) {
    super(`A backup is already running (${holder})`);
  }
}

/** A backup ran longer than a waiter was willing to wait. */
export class BackupGateTimeoutError extends Error {}

/** The lease document: one per gate name, its holder, and when the lease lapses unless renewed. */
interface LeaseDocument {
  _id: string;
  holder: string;
  expiresAt: number;
}

export interface MongoBackupGateOptions {
  /** A lease lapses this long after its last renewal, so a killed backup releases the gate. Default 60 s. */
  leaseMs?: number;
  /** How often `waitForIdle` looks again. Default 1 s. */
  pollMs?: number;
  /** How long `waitForIdle` waits before failing with `BackupGateTimeoutError`. Default 3 h. */
  maxWaitMs?: number;
}

const LEASE_ID = 'backup';

/** The collection of the gate's leases: transient, so snapshots leave it out. */
export const LEASE_COLLECTION = 'opsLeases';

/**
 * The backup gate shared by every process through MongoDB (`opsLeases` collection): the backup job holds a lease
 * while it runs, renewing it every third of `leaseMs`; `waitForIdle` polls until no unexpired lease exists. Taking
 * the lease is a single-document conditional write (insert, or take over an expired one), so two workers never
 * back up at once.
 */
export class MongoBackupGate implements BackupGate {
  private readonly leases: Collection<LeaseDocument>;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;

  constructor(
    mongo: Connection,
    private readonly clock: Clock,
    options: MongoBackupGateOptions = {},
  ) {
    this.leases = mongo.collection<LeaseDocument>(LEASE_COLLECTION);
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.maxWaitMs = options.maxWaitMs ?? 3 * 3_600_000;
  }

  /** Runs `work` holding the gate; throws `BackupAlreadyRunningError` when another holder has it. */
  async hold<T>(holder: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(holder);
    const renew = setInterval(() => {
      this.leases
        .updateOne({ _id: LEASE_ID, holder }, { $set: { expiresAt: this.clock.now() + this.leaseMs } })
        .catch(() => undefined); // a missed renewal is retried on the next tick; the lease outlives two misses
    }, this.leaseMs / 3);
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await this.leases.deleteOne({ _id: LEASE_ID, holder });
    }
  }

  /** Whether an unexpired lease exists (a backup is running somewhere). */
  async isHeld(): Promise<boolean> {
    return (await this.leases.countDocuments({ _id: LEASE_ID, expiresAt: { $gt: this.clock.now() } })) > 0;
  }

  async waitForIdle(): Promise<void> {
    const started = Date.now();
    while (await this.isHeld()) {
      if (Date.now() - started >= this.maxWaitMs) {
        throw new BackupGateTimeoutError(`A backup has held the gate for more than ${this.maxWaitMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  private async acquire(holder: string): Promise<void> {
    const now = this.clock.now();
    try {
      await this.leases.insertOne({ _id: LEASE_ID, holder, expiresAt: now + this.leaseMs });
      return;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const taken = await this.leases.findOneAndUpdate(
      { _id: LEASE_ID, expiresAt: { $lte: now } },
      { $set: { holder, expiresAt: now + this.leaseMs } },
    );
    if (!taken) {
      const current = await this.leases.findOne({ _id: LEASE_ID });
      throw new BackupAlreadyRunningError(current?.holder ?? 'unknown holder');
    }
  }
}
