import { ValidationError, type FieldError } from '../../platform/errors';
import { INDEX_NAMES, isIndexName, type IndexName, type SourceDocument } from '../../models/corpusRecords';

/** Limits applied to an ingested document. Defaults: 1 MiB of UTF-8 text, source up to 2048 characters. */
export interface DocumentLimits {
  maxBytes: number;
  maxSourceLength: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxBytes: 1024 * 1024, maxSourceLength: 2048 };

/** Stable error codes for rejected documents (all HTTP 400). */
export const INGEST_ERROR_CODES = {
  empty: 'BRAIN_DOCUMENT_EMPTY',
  tooLarge: 'BRAIN_DOCUMENT_TOO_LARGE',
  binary: 'BRAIN_DOCUMENT_BINARY',
  unknownIndex: 'BRAIN_UNKNOWN_INDEX',
  missingSource: 'BRAIN_SOURCE_MISSING',
} as const;

/** A document that passed validation: its index is known and its text is real, bounded UTF-8 text. */
export interface ValidDocument extends SourceDocument {
  index: IndexName;
}

const BINARY_SAMPLE_CHARS = 8192;
// Printable text has almost no C0 controls besides tab/newline/CR/FF; decoded binary is full of them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHAR = /[\u0001-\u0008\u000e-\u001f\u007f\ufffd]/g;
const MAX_CONTROL_RATIO = 0.02;

/** True when a string looks like decoded binary data rather than text. */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const sample = text.slice(0, BINARY_SAMPLE_CHARS);
  const controls = sample.match(CONTROL_CHAR)?.length ?? 0;
  return sample.length > 0 && controls / sample.length > MAX_CONTROL_RATIO;
}

/**
 * Decodes file bytes for the ingest CLI: rejects NUL bytes and invalid UTF-8 as binary (400
 * BRAIN_DOCUMENT_BINARY) instead of ingesting mojibake. `path` names the field in the error.
 */
export function decodeSourceBytes(bytes: Uint8Array, path = 'text'): string {
  const fail = () => {
    throw new ValidationError(
      'Document content is binary, not UTF-8 text',
      [{ path, message: 'binary content' }],
      INGEST_ERROR_CODES.binary,
    );
  };
  if (bytes.subarray(0, BINARY_SAMPLE_CHARS).includes(0)) fail();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail();
  }
}

/**
 * Checks a document before anything is written: known index, non-empty source, non-blank text, text within
 * `limits.maxBytes`, not binary. Throws one ValidationError listing every failing field (paths under
 * `pathPrefix`, default `body`); its code is the first failure's.
 */
export function validateSourceDocument(
  doc: SourceDocument,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  pathPrefix = 'body',
): ValidDocument {
  const failures: { code: string; error: FieldError }[] = [];
  const fail = (code: string, field: string, message: string) =>
    failures.push({ code, error: { path: `${pathPrefix}.${field}`, message } });

  if (!isIndexName(doc.index)) {
    fail(INGEST_ERROR_CODES.unknownIndex, 'index', `must be one of ${INDEX_NAMES.join(', ')}`);
  }
  if (typeof doc.source !== 'string' || doc.source.trim() === '') {
    fail(INGEST_ERROR_CODES.missingSource, 'source', 'must be a non-empty path or URL');
  } else if (doc.source.length > limits.maxSourceLength) {
    fail(INGEST_ERROR_CODES.missingSource, 'source', `must be at most ${limits.maxSourceLength} characters`);
  }
  const text = typeof doc.text === 'string' ? doc.text : '';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (text.trim() === '') {
    fail(INGEST_ERROR_CODES.empty, 'text', 'must contain non-whitespace text');
  } else if (bytes > limits.maxBytes) {
    fail(INGEST_ERROR_CODES.tooLarge, 'text', `is ${bytes} bytes; the limit is ${limits.maxBytes}`);
  } else if (looksBinary(text)) {
    fail(INGEST_ERROR_CODES.binary, 'text', 'binary content');
  }

  if (failures.length > 0) {
    const detail = failures.map((f) => `${f.error.path} ${f.error.message}`).join('; ');
    throw new ValidationError(
      detail,
      failures.map((f) => f.error),
      failures[0].code,
    );
  }
  return { ...doc, index: doc.index as IndexName };
}
