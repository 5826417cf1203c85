import { errorFactory } from '../../platform/errors';

/** The one code the web client's files answer with beyond the platform's own, and how it answers. */
export const WEB_ERRORS = {
  WEB_CLIENT_NOT_BUILT: { status: 503, title: 'Service Unavailable' },
} as const;

/** `webError('CODE', detail)`: the AppError that code answers with. */
export const webError = errorFactory(WEB_ERRORS);
