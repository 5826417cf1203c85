import { errorFactory, type AppError } from '../../platform/errors';

/** Every code the admin brain answers with beyond the platform's own, and how each answers, in one place. */
export const ADMIN_ERRORS = {
  AUDIT_RANGE_INVALID: { status: 400, title: 'Invalid request' },
  USER_NOT_FOUND: { status: 404, title: 'Not Found' },
  OPERATIONS_QUERY_REFUSED: { status: 422, title: 'Question refused' },
} as const;

/** One of the admin brain's codes. */
export type AdminErrorCode = keyof typeof ADMIN_ERRORS;

/** `adminError('CODE', detail)`: the AppError that code answers with. */
export const adminError = errorFactory(ADMIN_ERRORS);

/** 400: `from` is after `to`. */
export function auditRangeInvalid(): AppError {
  return adminError('AUDIT_RANGE_INVALID', 'from must not be after to', {
    errors: [{ path: 'body.from', message: 'after to' }],
  });
}

/** 404: no user with this id. */
export function userNotFound(id: string): AppError {
  return adminError('USER_NOT_FOUND', `No user ${id}`);
}

/**
 * 422: an operations question outside the fixed catalogue (or asking for a change): refused, never executed. The
 * problem carries the catalogue's metric names so the caller can rephrase.
 */
export function operationsQueryRefused(reason: string, metrics: string[]): AppError {
  return adminError('OPERATIONS_QUERY_REFUSED', reason, { extensions: { metrics } });
}
