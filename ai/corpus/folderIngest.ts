import { AppError } from '../../platform/errors';
import type { IngestResult, Ingestor } from './ingestor';
import { listSourceFiles, readSourceDocument } from './repositoryFiles';

/** Summary of a folder ingest, for the CLI to print. */
export interface FolderIngestReport {
  results: IngestResult[];
  /** Files rejected (binary, empty, too large) with the error code; the rest of the folder still goes in. */
  skipped: { source: string; code: string; detail: string }[];
}

/**
 * Ingests every eligible file under `folder` of `root`, one document per ingest call (the work behind
 * `npm run brain:ingest -- <path>`). A file the validation rejects is skipped and reported rather than
 * failing the folder; other errors (a store or every embedding provider down) stop the run.
 */
export async function ingestFolder(
  ingestor: Pick<Ingestor, 'ingest'>,
  root: string,
  folder = '.',
): Promise<FolderIngestReport> {
  const report: FolderIngestReport = { results: [], skipped: [] };
  for (const source of await listSourceFiles(root, folder)) {
    try {
      report.results.push(
        ...(await ingestor.ingest([await readSourceDocument(root, source)], source, 'cli')),
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      const detail = error.errors?.map((e) => e.message).join('; ') || error.message;
      report.skipped.push({ source, code: error.code, detail });
    }
  }
  return report;
}
