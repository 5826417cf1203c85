import { errorFactory } from '../../platform/errors';

/** The notification service's own codes, with their statuses in one place (401s come from the identity service). */
export const NOTIFICATION_ERRORS = {
  /** The socket names another user's stream, or the caller is not a user (the service token). */
  CHANNEL_FORBIDDEN: { status: 403, title: 'Forbidden' },
  /** A socket path under /notifications/ws that is not a stream. */
  ROUTE_NOT_FOUND: { status: 404, title: 'Not Found' },
  /** `GET /notifications/ws` over plain HTTP. */
  UPGRADE_REQUIRED: { status: 426, title: 'Upgrade Required' },
} as const;

/** One of the notification service's codes. */
export type NotificationErrorCode = keyof typeof NOTIFICATION_ERRORS;

/** `notificationError('CODE', detail)`: the AppError that code answers with. */
export const notificationError = errorFactory(NOTIFICATION_ERRORS);
