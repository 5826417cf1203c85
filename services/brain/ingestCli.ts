/**
 * `npm run brain:ingest -- <path> [<path> ...]`: ingests folders (or single files) into the brain's configured
 * stores — the embedded MongoDB and Qdrant engines under DATA_DIR unless MONGODB_URI / QDRANT_URL are set —
 * exactly as POST /brain/ingest would. npm runs scripts from the repository root, so paths are relative to it
 * and `.` indexes the whole repository (docs, code and tests). Files the validation rejects (binary, empty,
 * over BRAIN_MAX_DOCUMENT_BYTES) are listed and skipped; exit status 1 means the run stopped on an error.
 * Progress goes to stderr: a bar on a terminal, a plain line every `--progress-every` seconds (5) otherwise.
 * Killed at any moment, a re-run resumes: what was acknowledged is unchanged and skipped, the rest is written.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { ingestFolder, type FolderIngestReport } from '../../ai/corpus/folderIngest';
import { embeddedEngines } from '../../embedded';
import { systemClock } from '../../platform/clock';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { openStores } from '../../platform/stores';
import { openBrainCore, type BrainCore } from './brainCore';
import { ingestFolderOverHttp } from './ingestOverHttp';
import { ProgressReporter, type ProgressStream } from './ingestProgress';

/** Where a path's files are read from, and the folder within it: repository-relative sources when possible. */
async function rootAndFolder(cwd: string, target: string): Promise<{ root: string; folder: string }> {
  const absolute = path.resolve(cwd, target);
  const relative = path.relative(cwd, absolute);
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  if (inside) return { root: cwd, folder: relative || '.' };
  const isFile = (await stat(absolute)).isFile();
  return isFile
    ? { root: path.dirname(absolute), folder: path.basename(absolute) }
    : { root: absolute, folder: '.' };
}

const USAGE =
  'usage: npm run brain:ingest -- [--url <server>] [--progress-every <seconds>] <path> [<path> ...]';

/** The CLI's options and paths; undefined when they do not parse (the usage is printed). */
function parseArgs(args: string[]): { url?: string; progressEveryMs: number; targets: string[] } | undefined {
  const rest = args.filter((arg) => arg !== '--');
  const options: { url?: string; progressEveryMs: number } = { progressEveryMs: 5000 };
  const targets: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const [arg, value] = [rest[i], rest[i + 1]];
    if (arg === '--url') {
      if (!value) return undefined;
      options.url = value;
      i++;
    } else if (arg === '--progress-every') {
      const seconds = Number(value);
      if (!value || !Number.isFinite(seconds) || seconds < 0) return undefined;
      options.progressEveryMs = seconds * 1000;
      i++;
    } else targets.push(arg);
  }
  return targets.length > 0 ? { ...options, targets } : undefined;
}

/** One line summing up a folder's report. */
export function summarise(target: string, report: FolderIngestReport): string {
  const count = (status: string) => report.results.filter((r) => r.status === status).length;
  const sum = (field: 'chunks' | 'removed') => report.results.reduce((n, r) => n + r[field], 0);
  return (
    `${target}: ${report.results.length} file${report.results.length === 1 ? '' : 's'} (${count('created')} created, ${count('updated')} updated, ` +
    `${count('unchanged')} unchanged), ${sum('chunks')} chunks, ` +
    `${sum('removed')} removed, ${report.skipped.length} skipped`
  );
}

/**
 * Runs the CLI: opens the stores, ingests each path, prints a summary per path and each skipped file, and
 * closes the stores. Returns the exit status (2 without a path). Logs go to stderr.
 */
export async function runIngestCli(
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    print?: (line: string) => void;
    /** Where progress goes (default stderr: a bar on a terminal, a line every few seconds otherwise). */
    progress?: ProgressStream;
  } = {},
): Promise<number> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const parsed = parseArgs(args);
  if (!parsed) {
    print(USAGE);
    return 2;
  }
  const { url, targets, progressEveryMs } = parsed;
  const progress = () => new ProgressReporter(options.progress ?? process.stderr, progressEveryMs);
  const config = loadConfig(options.env ?? process.env);
  if (url) return runOverHttp(url, targets, config, options.cwd ?? process.cwd(), print, progress);
  const logger = createLogger({ level: config.LOG_LEVEL, destination: pino.destination(2) });
  const stores = await openStores(config, logger, embeddedEngines);
  let core: BrainCore | undefined;
  try {
    core = await openBrainCore({ config, stores, clock: systemClock, logger });
    let changed = 0;
    let files = 0;
    for (const target of targets) {
      const { root, folder } = await rootAndFolder(options.cwd ?? process.cwd(), target);
      const reporter = progress();
      const report = await ingestFolder(core.ingestor, root, folder, (p) => reporter.update(p));
      reporter.done();
      print(summarise(target, report));
      for (const skip of report.skipped) print(`  skipped ${skip.source}: ${skip.code} (${skip.detail})`);
      changed += report.results.filter((r) => r.status !== 'unchanged').length;
      files += report.results.length;
    }
    if (changed === 0) print(`nothing to write: all ${files} files are unchanged`);
    // Vectors, the knowledge graph and RAPTOR trees are kept up in the background: let them reach the stores before
    // they close (vectors left owed would be resumed by the next start anyway).
    await core.backfill.whenIdle();
    print(`vectors: ${core.backfill.stats().done} chunks embedded`);
    await core.close();
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'brain ingest failed');
    print(`brain ingest failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await core?.close();
    await stores.close();
  }
}

/** `--url <server>`: posts to a running server with BRAIN_SERVICE_TOKEN; the server's own stores stay its own. */
async function runOverHttp(
  url: string,
  targets: string[],
  config: ReturnType<typeof loadConfig>,
  cwd: string,
  print: (line: string) => void,
  progress: () => ProgressReporter,
): Promise<number> {
  if (!config.BRAIN_SERVICE_TOKEN) {
    print('brain ingest over HTTP needs BRAIN_SERVICE_TOKEN');
    return 2;
  }
  const target = {
    baseUrl: url,
    token: config.BRAIN_SERVICE_TOKEN,
    batch: Math.min(50, config.BRAIN_INGEST_MAX_DOCUMENTS),
    maxBytes: config.BRAIN_MAX_DOCUMENT_BYTES,
  };
  try {
    let changed = 0;
    let files = 0;
    for (const path of targets) {
      const { root, folder } = await rootAndFolder(cwd, path);
      const reporter = progress();
      const report = await ingestFolderOverHttp(target, root, folder, (p) => reporter.update(p));
      reporter.done();
      print(summarise(path, report));
      for (const skip of report.skipped) print(`  skipped ${skip.source}: ${skip.code} (${skip.detail})`);
      changed += report.results.filter((r) => r.status !== 'unchanged').length;
      files += report.results.length;
    }
    if (changed === 0) print(`nothing to write: all ${files} files are unchanged`);
    return 0;
  } catch (error) {
    print(`brain ingest failed: ${(error as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  runIngestCli(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error: unknown) => {
      process.stderr.write(`brain ingest failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
