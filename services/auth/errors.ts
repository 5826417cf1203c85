import { ACCESS_ERRORS } from '../../access/errors';
import { errorFactory } from '../../platform/errors';

/**
 * The identity service's error codes and how each answers, in one place: the guards' codes (`access/errors.ts`),
 * accounts, email sign-in and single sign-on. Wallet sign-in keeps its own catalogue (`wallet/errors.ts`, the SIWE codes).
 */
export const AUTH_ERRORS = {
  ...ACCESS_ERRORS,
  USER_NOT_FOUND: { status: 404, title: 'Not Found' },
  IDENTITY_LINKED_ELSEWHERE: { status: 409, title: 'Conflict' },
  EMAIL_CODE_INVALID: { status: 400, title: 'Invalid request' },
  EMAIL_LOGIN_FAILED: { status: 401, title: 'Unauthorized' },
  EMAIL_NOT_VERIFIED: { status: 403, title: 'Forbidden' },
  EMAIL_LOGIN_THROTTLED: { status: 429, title: 'Too Many Requests' },
  EMAIL_DISABLED: { status: 501, title: 'Not Implemented' },
  DEV_OUTBOX_LOOPBACK_ONLY: { status: 403, title: 'Forbidden' },
  OIDC_STATE_INVALID: { status: 400, title: 'Bad Request' },
  OIDC_LOGIN_FAILED: { status: 401, title: 'Unauthorized' },
  OIDC_DISABLED: { status: 501, title: 'Not Implemented' },
  OIDC_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const;

/** One of the identity service's codes. */
export type AuthErrorCode = keyof typeof AUTH_ERRORS;

/** `authError('CODE', detail)`: the AppError that code answers with. */
export const authError = errorFactory(AUTH_ERRORS);
