import { errorFactory } from '../../platform/errors';

/** The health probes' codes: `/readyz` answers 503 while the process stops or while a store does not answer. */
export const HEALTH_ERRORS = {
  SHUTTING_DOWN: { status: 503, title: 'Service Unavailable' },
  NOT_READY: { status: 503, title: 'Service Unavailable' },
} as const;

/** One of the health probes' codes. */
export type HealthErrorCode = keyof typeof HEALTH_ERRORS;

/** `healthError('CODE', detail)`: the AppError that code answers with. */
export const healthError = errorFactory(HEALTH_ERRORS);
