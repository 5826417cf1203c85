import { AppError, NotFoundError, ValidationError } from '../../platform/errors';

/** Stable error codes of the admin brain, with their statuses in one place. */
export const ADMIN_ERRORS = {
  AUDIT_RANGE_INVALID: 400,
  USER_NOT_FOUND: 404,
  OPERATIONS_QUERY_REFUSED: 422,
} as const;

/** 400: `from` is after `to`. */
export class AuditRangeInvalidError extends ValidationError {
  constructor() {
    super('from must not be after to', [{ path: 'body.from', message: 'after to' }], 'AUDIT_RANGE_INVALID');
  }
}

/** 404: no user with this id. */
export class UserNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No user ${id}`, 'USER_NOT_FOUND');
  }
}

/**
 * 422: an operations question outside the fixed catalogue (or asking for a change): refused, never executed. The
 * problem carries the catalogue's metric names so the caller can rephrase.
 */
export class OperationsQueryRefusedError extends AppError {
  constructor(reason: string, metrics: string[]) {
    super(ADMIN_ERRORS.OPERATIONS_QUERY_REFUSED, 'OPERATIONS_QUERY_REFUSED', 'Question refused', {
      detail: reason,
      extensions: { metrics },
    });
  }
}
