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
  onProgress?: (progress: FolderProgress) => void,
): Promise<FolderIngestReport> {
  const report: FolderIngestReport = { results: [], skipped: [] };
  const sources = await listSourceFiles(root, folder);
  let chunks = 0;
  for (const [i, source] of sources.entries()) {
    try {
      const results = await ingestor.ingest([await readSourceDocument(root, source)], source, 'cli');
      report.results.push(...results);
      for (const result of results) if (result.status !== 'unchanged') chunks += result.chunks;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      const detail = error.errors?.map((e) => e.message).join('; ') || error.message;
      report.skipped.push({ source, code: error.code, detail });
    }
    onProgress?.({ files: i + 1, total: sources.length, chunks });
  }
  return report;
}

/** Where a folder ingest stands: files done of those listed, chunks written (unchanged files write none). */
export interface FolderProgress {
  files: number;
  total: number;
  chunks: number;
}
