import { errorFactory } from '../../../platform/errors';

/** Every code the memory routes answer with (besides auth and VALIDATION_FAILED), with its status. */
export const MEMORY_ERRORS = {
  BRAIN_SECRET_DETECTED: { status: 400, title: 'Invalid request' },
  MEMORY_SESSION_REQUIRED: { status: 400, title: 'Invalid request' },
  MEMORY_SUBJECT_REQUIRED: { status: 400, title: 'Invalid request' },
  MEMORY_FORGET_UNCONFIRMED: { status: 400, title: 'Invalid request' },
  MEMORY_SUBJECT_FORBIDDEN: { status: 403, title: 'Forbidden' },
  MEMORY_NOT_FOUND: { status: 404, title: 'Not Found' },
} as const;

/** One of the memory codes. */
export type MemoryErrorCode = keyof typeof MEMORY_ERRORS;

/** `memoryError('CODE', detail)`: the AppError that code answers with. */
export const memoryError = errorFactory(MEMORY_ERRORS);
