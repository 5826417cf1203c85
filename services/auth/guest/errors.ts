import { errorFactory, retryAfter, type AppError } from '../../../platform/errors';

/** The guest and display-name codes, and how each answers, in one place. */
export const GUEST_ERRORS = {
  GUEST_DISABLED: { status: 501, title: 'Not Implemented' },
  GUEST_SIGNIN_THROTTLED: { status: 429, title: 'Too Many Requests' },
  DISPLAY_NAME_TAKEN: { status: 409, title: 'Conflict' },
  DISPLAY_NAME_NOT_ALLOWED: { status: 400, title: 'Invalid request' },
} as const;

/** `guestError('CODE', detail)`: the AppError that code answers with. */
export const guestError = errorFactory(GUEST_ERRORS);

/** The guest sign-in refusals, each with its message. */
export const GuestErrors = {
  /** 501: GUEST_SIGNIN_ENABLED=0. */
  disabled: (): AppError =>
    guestError('GUEST_DISABLED', 'Guest sign-in is disabled on this server (GUEST_SIGNIN_ENABLED=0)'),
  /** 429: this client address made its GUEST_SIGNIN_PER_HOUR guests this hour. */
  throttled: (retryAfterSeconds: number): AppError =>
    guestError(
      'GUEST_SIGNIN_THROTTLED',
      'Too many guest accounts from this address: try again later',
      retryAfter(retryAfterSeconds),
    ),
  /** 409: someone else uses the name (case-insensitively). */
  nameTaken: (): AppError => guestError('DISPLAY_NAME_TAKEN', 'This display name is taken'),
  /** 400: the name is on the deny-list. */
  nameNotAllowed: (): AppError =>
    guestError('DISPLAY_NAME_NOT_ALLOWED', 'This display name is not allowed', {
      errors: [{ path: 'body.display_name', message: 'not allowed' }],
    }),
} as const;
