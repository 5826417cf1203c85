import { BLOCKING_SECRET_KINDS, redactSecrets, scanForSecrets } from '../../../ai/memory/secretScanner';
import { memoryError } from '../memory/errors';

/**
 * The ingestion side of "ingest and remember refuse private keys and mnemonics": checks every document before
 * anything is written. Refuses the request with 400 BRAIN_SECRET_DETECTED (`errors[]` naming
 * `body.documents.<n>.text`, the kind and line, never the value), or, with `redact`, answers the documents with the
 * findings replaced by `[redacted:<kind>]`. Call it first in `POST /brain/ingest` (the retrieval issue's router).
 */
export function screenIngestDocuments<D extends { text: string }>(
  documents: readonly D[],
  redact: boolean,
): D[] {
  const errors: { path: string; message: string }[] = [];
  const screened = documents.map((document, index) => {
    const blocking = scanForSecrets(document.text, BLOCKING_SECRET_KINDS);
    if (blocking.length === 0) return document;
    if (redact) return { ...document, text: redactSecrets(document.text, blocking) };
    for (const finding of blocking) {
      errors.push({
        path: `body.documents.${index}.text`,
        message: `${finding.kind} at line ${finding.line}`,
      });
    }
    return document;
  });
  if (errors.length > 0) {
    throw memoryError(
      'BRAIN_SECRET_DETECTED',
      'A document holds private key or mnemonic material; nothing was ingested',
      { errors },
    );
  }
  return screened;
}
