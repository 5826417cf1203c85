import { errorFactory } from '../platform/errors';

const BEARER = { 'WWW-Authenticate': 'Bearer' };

/**
 * The codes the guards answer with, in one place: no or a bad credential (401), a caller lacking a role, a user
 * session or an identity tier (403). The identity service's catalogue (`services/auth/errors.ts`) includes them.
 */
export const ACCESS_ERRORS = {
  UNAUTHENTICATED: { status: 401, title: 'Unauthorized', headers: BEARER },
  INVALID_CREDENTIAL: { status: 401, title: 'Unauthorized', headers: BEARER },
  ROLE_REQUIRED: { status: 403, title: 'Forbidden' },
  USER_SESSION_REQUIRED: { status: 403, title: 'Forbidden' },
  TIER_REQUIRED: { status: 403, title: 'Forbidden' },
} as const;

/** `accessError('CODE', detail)`: the AppError that code answers with. */
export const accessError = errorFactory(ACCESS_ERRORS);
