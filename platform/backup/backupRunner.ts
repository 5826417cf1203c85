import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Agenda } from 'agenda';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { backupDuration, backupFailures, backupLastSuccess } from '../metrics';
import type { MongoBackupGate } from './backupGate';
import type { SnapshotManifest } from './snapshotFormat';
import { writeSnapshot, type SnapshotStores } from './snapshotWriter';

/** Name of the Agenda job that runs the nightly backup. */
export const BACKUP_JOB = 'platform.backup';

const PARTIAL_SUFFIX = '.partial';

export interface BackupRunnerOptions {
  stores: SnapshotStores;
  /** Where snapshots go: `DATA_DIR/backups`. */
  backupsDir: string;
  /** Complete snapshots kept; older ones are removed after each backup. */
  retain: number;
  gate: MongoBackupGate;
  clock: Clock;
  logger: Logger;
}

/** A finished backup: where it is and what it holds. */
export interface BackupResult {
  dir: string;
  manifest: SnapshotManifest;
  removed: string[];
}

/** Snapshot id from its start time: `2026-11-26T03-00-00-000Z` (sorts as it was taken). */
export function snapshotId(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

/**
 * Takes backups: holds the backup gate (consolidation waits for it), writes a snapshot into
 * `<backupsDir>/<id>.partial`, renames it to `<id>` once complete, then keeps the newest `retain` snapshots.
 * A crashed run leaves only a `.partial` directory, removed by the next run.
 */
export class BackupRunner {
  constructor(private readonly options: BackupRunnerOptions) {}

  /** Runs one backup now. Throws `BackupAlreadyRunningError` when another process is backing up. */
  async run(): Promise<BackupResult> {
    const { gate, clock, logger } = this.options;
    const holder = `${os.hostname()}:${process.pid}`;
    try {
      return await gate.hold(holder, async () => {
        const started = clock.now();
        const result = await this.snapshot(new Date(started));
        backupLastSuccess.set(clock.now() / 1000);
        backupDuration.set((clock.now() - started) / 1000);
        logger.info(
          { snapshot: result.manifest.id, removed: result.removed, durationMs: clock.now() - started },
          'backup complete',
        );
        return result;
      });
    } catch (error) {
      backupFailures.inc();
      logger.error({ err: error }, 'backup failed');
      throw error;
    }
  }

  /** The complete snapshots, oldest first. */
  async list(): Promise<string[]> {
    const entries = await fs.readdir(this.options.backupsDir).catch(() => [] as string[]);
    return entries.filter((name) => !name.endsWith(PARTIAL_SUFFIX)).sort();
  }

  /** Defines the backup job and schedules it on `cron` (a JobRegistrar). */
  registerJob(cron: string): (agenda: Agenda) => Promise<void> {
    return async (agenda) => {
      agenda.define(BACKUP_JOB, async () => {
        await this.run();
      });
      await agenda.every(cron, BACKUP_JOB);
    };
  }

  private async snapshot(startedAt: Date): Promise<BackupResult> {
    const { backupsDir, stores, clock } = this.options;
    await fs.mkdir(backupsDir, { recursive: true });
    await this.removePartials();
    const id = snapshotId(startedAt);
    const partial = path.join(backupsDir, `${id}${PARTIAL_SUFFIX}`);
    const manifest = await writeSnapshot(stores, partial, {
      id,
      startedAt,
      now: () => new Date(clock.now()),
    });
    const dir = path.join(backupsDir, id);
    await fs.rename(partial, dir);
    return { dir, manifest, removed: await this.prune() };
  }

  private async removePartials(): Promise<void> {
    for (const name of await fs.readdir(this.options.backupsDir)) {
      if (name.endsWith(PARTIAL_SUFFIX)) {
        await fs.rm(path.join(this.options.backupsDir, name), { recursive: true, force: true });
      }
    }
  }

  private async prune(): Promise<string[]> {
    const complete = await this.list();
    const expired = complete.slice(0, Math.max(0, complete.length - this.options.retain));
    for (const name of expired) {
      await fs.rm(path.join(this.options.backupsDir, name), { recursive: true, force: true });
    }
    return expired;
  }
}
