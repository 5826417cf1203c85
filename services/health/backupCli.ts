/**
 * `npm run backup`: takes a snapshot of the configured stores into DATA_DIR/backups now (as the nightly job does,
 * holding the same gate, keeping BACKUP_RETAIN snapshots). `npm run restore -- <snapshot>`: restores a snapshot (a
 * directory, or an id under DATA_DIR/backups) into the configured stores, which must be empty — a fresh DATA_DIR
 * for the embedded engines. Both open the stores as the server does (embedded engines under DATA_DIR unless
 * MONGODB_URI / QDRANT_URL are set), so with the embedded defaults the server must be stopped first: the engines
 * lock DATA_DIR. Logs go to stderr; exit status 1 means the run failed, 2 a usage error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { embeddedEngines } from '../../embedded';
import { backupRunnerOf, backupsDirOf, restoreSnapshot } from '../../platform/backup';
import { systemClock } from '../../platform/clock';
import { loadConfig, type Config } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import type { PlatformContext } from '../../platform/platform';
import { openStores } from '../../platform/stores';

const USAGE = 'usage: npm run backup | npm run restore -- <snapshot directory or id>';

/** The snapshot directory an argument names: a path as given when it exists, else an id under DATA_DIR/backups. */
async function snapshotDir(config: Config, argument: string, cwd: string): Promise<string> {
  const direct = path.resolve(cwd, argument);
  const exists = await fs.stat(direct).then(
    (entry) => entry.isDirectory(),
    () => false,
  );
  return exists ? direct : path.join(backupsDirOf({ config }), argument);
}

/** Runs `backup` or `restore <snapshot>`; returns the exit status. */
export async function runBackupCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; print?: (line: string) => void } = {},
): Promise<number> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const [command, ...rest] = args.filter((arg) => arg !== '--');
  if (!(command === 'backup' && rest.length === 0) && !(command === 'restore' && rest.length === 1)) {
    print(USAGE);
    return 2;
  }
  const config = loadConfig(options.env ?? process.env);
  const logger = createLogger({ level: config.LOG_LEVEL, destination: pino.destination(2) });
  let stores;
  try {
    stores = await openStores(config, logger, embeddedEngines);
  } catch (error) {
    print(`${command} failed: ${(error as Error).message}`);
    return 1;
  }
  try {
    const context: PlatformContext = { config, logger, stores, clock: systemClock, isAccepting: () => true };
    if (command === 'backup') {
      const result = await backupRunnerOf(context).run();
      const { mongo, qdrant } = result.manifest;
      print(
        `backup ${result.manifest.id}: ${mongo.collections.length} MongoDB collections, ` +
          `${qdrant.collections.length} Qdrant collections in ${result.dir}`,
      );
      for (const removed of result.removed) print(`  removed old snapshot ${removed}`);
    } else {
      const dir = await snapshotDir(config, rest[0], options.cwd ?? process.cwd());
      const db = stores.mongo.db;
      if (!db) throw new Error('MongoDB is not connected');
      const manifest = await restoreSnapshot({ mongo: db, qdrant: stores.qdrant }, dir);
      const documents = manifest.mongo.collections.reduce((sum, entry) => sum + entry.documents, 0);
      const points = manifest.qdrant.collections.reduce((sum, entry) => sum + entry.points, 0);
      print(`restored ${manifest.id}: ${documents} documents, ${points} points`);
    }
    return 0;
  } catch (error) {
    logger.error({ err: error }, `${command} failed`);
    print(`${command} failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await stores.close();
  }
}

if (require.main === module) {
  runBackupCli(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
