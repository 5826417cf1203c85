import { setTimeout as sleep } from 'node:timers/promises';
import type { FolderIngestReport, FolderProgress } from '../../ai/corpus/folderIngest';
import type { IngestResult } from '../../ai/corpus/ingestor';
import { listSourceFiles, readSourceDocument } from '../../ai/corpus/repositoryFiles';
import { AppError } from '../../platform/errors';
import type { SourceDocument } from '../../models/corpusRecords';

/** Where and how `npm run brain:ingest -- --url <base>` posts: the server, its service token, batch size, size limit. */
export interface HttpIngestTarget {
  baseUrl: string;
  token: string;
  /** Documents per request (at most the server's BRAIN_INGEST_MAX_DOCUMENTS). */
  batch: number;
  /** Files over this many bytes are skipped before sending (the server would answer 413). */
  maxBytes: number;
}

type Posted = { status: number; body: { documents?: IngestResult[]; code?: string; detail?: string } };

async function post(target: HttpIngestTarget, documents: SourceDocument[]): Promise<Posted> {
  for (;;) {
    const response = await fetch(new URL('/brain/ingest', target.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
      body: JSON.stringify({ documents }),
    });
    const body = (await response.json()) as Posted['body'];
    // Busy, or its store failed: wait as told and send the same batch again (idempotent per source and content).
    if (
      response.status === 503 &&
      (body.code === 'BRAIN_INGEST_BUSY' || body.code === 'BRAIN_STORE_UNAVAILABLE')
    ) {
      await sleep(1000 * Number(response.headers.get('retry-after') ?? 1));
      continue;
    }
    return { status: response.status, body };
  }
}

/**
 * Ingests the files under `folder` of `root` into a running server, `batch` documents per POST /brain/ingest with
 * the service token. Binary files and files over `maxBytes` are skipped before sending; a batch the server refuses
 * as malformed (400/413) is sent again one document at a time, so only the bad file is skipped. Any other error
 * stops the run (what was acknowledged stays; a re-run skips it as unchanged).
 */
export async function ingestFolderOverHttp(
  target: HttpIngestTarget,
  root: string,
  folder: string,
  onProgress?: (progress: FolderProgress) => void,
): Promise<FolderIngestReport> {
  const report: FolderIngestReport = { results: [], skipped: [] };
  const documents: SourceDocument[] = [];
  for (const source of await listSourceFiles(root, folder)) {
    try {
      const document = await readSourceDocument(root, source);
      const bytes = Buffer.byteLength(document.text);
      if (bytes > target.maxBytes) {
        const detail = `is ${bytes} bytes; the limit is ${target.maxBytes}`;
        report.skipped.push({ source, code: 'BRAIN_DOCUMENT_TOO_LARGE', detail });
      } else documents.push(document);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      report.skipped.push({
        source,
        code: error.code,
        detail: error.errors?.map((e) => e.message).join('; ') || error.message,
      });
    }
  }
  const send = async (batch: SourceDocument[]): Promise<void> => {
    const answer = await post(target, batch);
    if (answer.status === 200 || answer.status === 207) {
      report.results.push(...(answer.body.documents ?? []));
      return;
    }
    if ((answer.status === 400 || answer.status === 413) && batch.length > 1) {
      for (const document of batch) await send([document]);
      return;
    }
    if (answer.status === 400 || answer.status === 413) {
      report.skipped.push({
        source: batch[0].source,
        code: answer.body.code ?? 'REFUSED',
        detail: answer.body.detail ?? '',
      });
      return;
    }
    throw new Error(
      `POST /brain/ingest answered ${answer.status}: ${answer.body.code ?? ''} ${answer.body.detail ?? ''}`,
    );
  };
  const skippedBefore = report.skipped.length;
  const total = documents.length + skippedBefore;
  const written = () =>
    report.results.reduce((sum, result) => sum + (result.status === 'unchanged' ? 0 : result.chunks), 0);
  for (let start = 0; start < documents.length; start += target.batch) {
    await send(documents.slice(start, start + target.batch));
    const files = skippedBefore + Math.min(documents.length, start + target.batch);
    onProgress?.({ files, total, chunks: written() });
  }
  return report;
}
