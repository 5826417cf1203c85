import { errorFactory } from '../../platform/errors';

/** Every code the social routes answer with beyond the platform's own (400 VALIDATION_FAILED, 401, 429), in one place. */
export const SOCIAL_ERRORS = {
  UNAUTHENTICATED: { status: 401, title: 'Unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } },
  ROLE_REQUIRED: { status: 403, title: 'Forbidden' },
  SERVICE_TOKEN_REQUIRED: { status: 403, title: 'Forbidden' },
  SOCIAL_SELF_TARGET: { status: 400, title: 'Invalid request' },
  IDENTITY_REQUIRED: { status: 400, title: 'Invalid request' },
  LINK_PROOF_INVALID: { status: 400, title: 'Invalid request' },
  LINK_PROOF_REQUIRED: { status: 400, title: 'Invalid request' },
  NOT_YOUR_IDENTITY: { status: 403, title: 'Forbidden' },
  IDENTITY_NOT_FOUND: { status: 404, title: 'Not Found' },
  LINK_NOT_FOUND: { status: 404, title: 'Not Found' },
  IDEMPOTENCY_CONFLICT: { status: 409, title: 'Conflict' },
  SYNC_BATCH_CONFLICT: { status: 409, title: 'Conflict' },
  IDENTITY_LINKED_ELSEWHERE: { status: 409, title: 'Conflict' },
  SOCIAL_BUSY: { status: 503, title: 'Service Unavailable' },
} as const;

/** One of the social area's codes. */
export type SocialErrorCode = keyof typeof SOCIAL_ERRORS;

/** `socialError('CODE', detail)`: the AppError that code answers with. */
export const socialError = errorFactory(SOCIAL_ERRORS);
