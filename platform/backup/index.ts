import path from 'node:path';
import type { PlatformContext } from '../platform';
import { MongoBackupGate, type BackupGate } from './backupGate';
import { BackupRunner } from './backupRunner';

export { BACKUP_JOB, BackupRunner, snapshotId, type BackupResult } from './backupRunner';
export {
  BackupAlreadyRunningError,
  BackupGateTimeoutError,
  MongoBackupGate,
  type BackupGate,
} from './backupGate';
export { readManifest, type SnapshotManifest } from './snapshotFormat';
export { restoreSnapshot, RestoreTargetNotEmptyError } from './snapshotRestorer';
export { writeSnapshot, type SnapshotStores } from './snapshotWriter';

/** Where a platform keeps its snapshots: `DATA_DIR/backups`. */
export function backupsDirOf(context: Pick<PlatformContext, 'config'>): string {
  return path.resolve(context.config.DATA_DIR, 'backups');
}

/**
 * The backup gate of a platform's MongoDB: what memory consolidation waits on (`backupGate.waitForIdle()`),
 * shared by every process of a deployment.
 */
export function backupGateOf(
  context: Pick<PlatformContext, 'stores' | 'clock'>,
): BackupGate & MongoBackupGate {
  return new MongoBackupGate(context.stores.mongo, context.clock);
}

/** The backup runner of a platform: its stores, `DATA_DIR/backups`, BACKUP_RETAIN, the shared gate. */
export function backupRunnerOf(context: PlatformContext): BackupRunner {
  const db = context.stores.mongo.db;
  if (!db) throw new Error('backups need a connected MongoDB');
  return new BackupRunner({
    stores: { mongo: db, qdrant: context.stores.qdrant },
    backupsDir: backupsDirOf(context),
    retain: context.config.BACKUP_RETAIN,
    gate: backupGateOf(context),
    clock: context.clock,
    logger: context.logger.child({ component: 'backup' }),
  });
}
