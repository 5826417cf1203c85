import { errorFactory } from '../../platform/errors';

/** The companion brain's codes, with their statuses in one place. */
export const COMPANION_ERRORS = {
  /** The caller has no companion by that name (companions belong to one player each). */
  COMPANION_NOT_FOUND: { status: 404, title: 'Not Found' },
  /** No memory of the caller's companion has that id. */
  MEMORY_NOT_FOUND: { status: 404, title: 'Not Found' },
} as const;

/** One of the companion brain's codes. */
export type CompanionErrorCode = keyof typeof COMPANION_ERRORS;

/** `companionError('CODE', detail)`: the AppError that code answers with. */
export const companionError = errorFactory(COMPANION_ERRORS);
