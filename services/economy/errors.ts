import { AppError, errorFactory } from '../../platform/errors';
import type { OperationError } from '../../models/EconomyOperation';

/** Every code the economy answers with beyond the platform's own, and how each answers, in one place. */
export const ECONOMY_ERRORS = {
  IDEMPOTENCY_CONFLICT: { status: 409, title: 'Conflict' },
  INSUFFICIENT_FUNDS: { status: 409, title: 'Conflict' },
  SUPPLY_CAP_REACHED: { status: 409, title: 'Conflict' },
  TRANSFER_TO_SELF: { status: 409, title: 'Conflict' },
  HOLD_NOT_FOUND: { status: 409, title: 'Conflict' },
  RECIPIENT_NOT_FOUND: { status: 404, title: 'Not Found' },
  ECONOMY_BUSY: { status: 503, title: 'Service Unavailable' },
} as const;
export type EconomyErrorCode = keyof typeof ECONOMY_ERRORS;

/** `economyError('CODE', detail)`: the AppError that code answers with. */
export const economyError = errorFactory(ECONOMY_ERRORS);

/** 409: an idempotency key already used with a different request body. Nothing changes. */
export function idempotencyConflict(key: string): AppError {
  return economyError(
    'IDEMPOTENCY_CONFLICT',
    `Idempotency key ${key} was already used with a different request`,
  );
}

/**
 * 409: the spendable balance does not cover the amount. Nothing changes. A class, since the ledger tells a refused
 * leg (`LegRefused`) from every other failure by it.
 */
export class InsufficientFundsError extends AppError {
  constructor(detail: string, code: 'INSUFFICIENT_FUNDS' | 'SUPPLY_CAP_REACHED' | 'HOLD_NOT_FOUND') {
    const { status, title } = ECONOMY_ERRORS[code];
    super(status, code, title, { detail });
  }
}

/** 409: a transfer to the sender's own account. */
export function transferToSelf(): AppError {
  return economyError('TRANSFER_TO_SELF', 'A transfer needs another recipient than the sender');
}

/** 404: the recipient user does not exist. */
export function recipientNotFound(userId: string): AppError {
  return economyError('RECIPIENT_NOT_FOUND', `No user ${userId}`);
}

/** 503: an account other writers keep changing; the caller retries (with the same idempotency key). */
export function economyBusy(account: string): AppError {
  return economyError(
    'ECONOMY_BUSY',
    `Account ${account} is changing too fast; retry with the same idempotency key`,
  );
}

/**
 * The error a refused operation stored, rebuilt (same status, code and detail) for the first answer and every
 * replay alike, so they are the same; a replay also carries `Idempotent-Replayed: true`.
 */
export function replayedError(error: OperationError, replayed = false): AppError {
  return new AppError(error.status, error.code, error.status === 409 ? 'Conflict' : 'Error', {
    detail: error.detail,
    ...(replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
  });
}
