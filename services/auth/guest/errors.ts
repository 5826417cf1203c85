import {
  AppError,
  ConflictError,
  NotEnabledError,
  RateLimitedError,
  ValidationError,
} from '../../../platform/errors';

/** The guest and display-name codes, each with its status, in one place. */
export const GuestErrors = {
  /** 501: GUEST_SIGNIN_ENABLED=0. */
  disabled: (): AppError =>
    new NotEnabledError(
      'Guest sign-in is disabled on this server (GUEST_SIGNIN_ENABLED=0)',
      'GUEST_DISABLED',
    ),
  /** 429: this client address made its GUEST_SIGNIN_PER_HOUR guests this hour. */
  throttled: (retryAfterSeconds: number): AppError =>
    new RateLimitedError(
      retryAfterSeconds,
      'Too many guest accounts from this address: try again later',
      'GUEST_SIGNIN_THROTTLED',
    ),
  /** 409: someone else uses the name (case-insensitively). */
  nameTaken: (): AppError => new ConflictError('This display name is taken', 'DISPLAY_NAME_TAKEN'),
  /** 400: the name is on the deny-list. */
  nameNotAllowed: (): AppError =>
    new ValidationError(
      'This display name is not allowed',
      [{ path: 'body.display_name', message: 'not allowed' }],
      'DISPLAY_NAME_NOT_ALLOWED',
    ),
} as const;
