import { errorFactory } from '../../platform/errors';

/**
 * Every code the brain's routes answer with, and its status, in one place. The retrieval machinery in `ai/` raises
 * most of them (it sits below the services and cannot import this file); the router raises the rest through
 * `brainError`. Add a code here when either side starts to use one.
 */
export const BRAIN_ERRORS = {
  BRAIN_DOCUMENT_EMPTY: { status: 400, title: 'Invalid request' },
  BRAIN_DOCUMENT_TOO_LARGE: { status: 413, title: 'Payload Too Large' },
  BRAIN_DOCUMENT_BINARY: { status: 400, title: 'Invalid request' },
  BRAIN_UNKNOWN_INDEX: { status: 400, title: 'Invalid request' },
  BRAIN_SOURCE_MISSING: { status: 400, title: 'Invalid request' },
  BRAIN_DUPLICATE_SOURCE: { status: 400, title: 'Invalid request' },
  BRAIN_TOO_MANY_DOCUMENTS: { status: 400, title: 'Invalid request' },
  BRAIN_SECRET_DETECTED: { status: 400, title: 'Invalid request' },
  BRAIN_QUERY_EMPTY: { status: 400, title: 'Invalid request' },
  BRAIN_VECTOR_SPACE_MISSING: { status: 404, title: 'Not Found' },
  BRAIN_DOCUMENT_NOT_FOUND: { status: 404, title: 'Not Found' },
  BRAIN_VECTOR_SPACE_MISMATCH: { status: 409, title: 'Conflict' },
  BRAIN_EMBEDDING_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  BRAIN_NO_EMBEDDING_MODEL: { status: 503, title: 'Service Unavailable' },
  BRAIN_INGEST_BUSY: { status: 503, title: 'Service Unavailable' },
  BRAIN_STORE_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  BRAIN_STRATEGY_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const;

/** One of the brain's codes. */
export type BrainErrorCode = keyof typeof BRAIN_ERRORS;

/** `brainError('CODE', detail)`: the AppError that code answers with. */
export const brainError = errorFactory(BRAIN_ERRORS);
