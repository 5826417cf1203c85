import type { IngestResult, Ingestor } from '../../../ai/corpus/ingestor';
import { detectSecrets, redactFindings } from '../../../ai/secrets/secretDetector';
import type { SecretFinding } from '../../../ai/secrets/secretFinding';
import { AppError } from '../../../platform/errors';
import { brainError } from '../errors';

/** A document the screen kept out of the indexes: its position in the request, its source and why (never the value). */
export interface RefusedDocument {
  position: number;
  source: string;
  findings: Array<Pick<SecretFinding, 'kind' | 'rule' | 'line'>>;
}

/** The screen's verdict on a batch: the documents to ingest (with their request positions) and those refused. */
export interface ScreenedBatch<D> {
  admitted: Array<{ position: number; document: D }>;
  refused: RefusedDocument[];
}

/**
 * The ingestion side of "the shared indexes never hold a secret": screens each document of a batch on its own
 * (ai/secrets: private keys with key context, checksum-valid seed phrases, provider tokens; never hashes). A
 * document holding one is refused, with its findings' kinds, rules and lines, and the rest of the batch goes on;
 * with `redact` (BRAIN_MEMORY_REDACT_SECRETS) it is admitted with each finding replaced by `[redacted:<kind>]`.
 * When every document is refused nothing is left to ingest: 400 BRAIN_SECRET_DETECTED naming each one.
 */
export function screenIngestDocuments<D extends { source: string; text: string }>(
  documents: readonly D[],
  redact: boolean,
  pathPrefix = 'body.documents',
): ScreenedBatch<D> {
  const screened: ScreenedBatch<D> = { admitted: [], refused: [] };
  documents.forEach((document, position) => {
    const findings = detectSecrets(document.text);
    if (findings.length === 0) screened.admitted.push({ position, document });
    else if (redact)
      screened.admitted.push({
        position,
        document: { ...document, text: redactFindings(document.text, findings) },
      });
    else
      screened.refused.push({
        position,
        source: document.source,
        findings: findings.map(({ kind, rule, line }) => ({ kind, rule, line })),
      });
  });
  if (screened.admitted.length === 0 && screened.refused.length > 0) {
    throw brainError('BRAIN_SECRET_DETECTED', 'Every document holds a secret; nothing was ingested', {
      errors: screened.refused.flatMap((r) =>
        r.findings.map((f) => ({
          path: `${pathPrefix}.${r.position}.text`,
          message: `${f.kind} at line ${f.line}`,
        })),
      ),
    });
  }
  return screened;
}

/**
 * Ingests the admitted documents of a screened batch. The ingestor names a malformed document by its place in what
 * it was given; the error is answered with its place in the request instead (`<pathPrefix>.<position>`).
 */
export async function ingestAdmitted<D extends Parameters<Ingestor['ingest']>[0][number]>(
  ingestor: Pick<Ingestor, 'ingest'>,
  admitted: ScreenedBatch<D>['admitted'],
  ingestedBy: string,
  pathPrefix = 'body.documents',
): Promise<IngestResult[]> {
  try {
    return await ingestor.ingest(
      admitted.map((a) => a.document),
      pathPrefix,
      ingestedBy,
    );
  } catch (error) {
    if (!(error instanceof AppError) || admitted.every((a, i) => a.position === i)) throw error;
    const at = new RegExp(`${pathPrefix.replaceAll('.', '\\.')}\\.(\\d+)`, 'g');
    const inRequest = (text: string) =>
      text.replace(at, (_, i: string) => `${pathPrefix}.${admitted[Number(i)]?.position ?? i}`);
    throw new AppError(error.status, error.code, error.title, {
      detail: error.detail === undefined ? undefined : inRequest(error.detail),
      errors: error.errors?.map((e) => ({ ...e, path: inRequest(e.path), message: inRequest(e.message) })),
      extensions: error.extensions,
      headers: error.headers,
      cause: error,
    });
  }
}
