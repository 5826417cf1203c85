import { AppError, ConflictError, NotFoundError, UnavailableError } from '../../platform/errors';
import type { OperationError } from '../../models/EconomyOperation';

/** Stable error codes of the economy, with their statuses in one place. */
export const ECONOMY_ERRORS = {
  IDEMPOTENCY_CONFLICT: 409,
  INSUFFICIENT_FUNDS: 409,
  SUPPLY_CAP_REACHED: 409,
  TRANSFER_TO_SELF: 409,
  HOLD_NOT_FOUND: 409,
  RECIPIENT_NOT_FOUND: 404,
  ECONOMY_BUSY: 503,
} as const;
export type EconomyErrorCode = keyof typeof ECONOMY_ERRORS;

/** 409: an idempotency key already used with a different request body. Nothing changes. */
export class IdempotencyConflictError extends ConflictError {
  constructor(key: string) {
    super(`Idempotency key ${key} was already used with a different request`, 'IDEMPOTENCY_CONFLICT');
  }
}

/** 409: the spendable balance does not cover the amount. Nothing changes. */
export class InsufficientFundsError extends ConflictError {
  constructor(detail: string, code: 'INSUFFICIENT_FUNDS' | 'SUPPLY_CAP_REACHED' | 'HOLD_NOT_FOUND') {
    super(detail, code);
  }
}

/** 409: a transfer to the sender's own account. */
export class TransferToSelfError extends ConflictError {
  constructor() {
    super('A transfer needs another recipient than the sender', 'TRANSFER_TO_SELF');
  }
}

/** 404: the recipient user does not exist. */
export class RecipientNotFoundError extends NotFoundError {
  constructor(userId: string) {
    super(`No user ${userId}`, 'RECIPIENT_NOT_FOUND');
  }
}

/** 503: an account other writers keep changing; the caller retries (with the same idempotency key). */
export class EconomyBusyError extends UnavailableError {
  constructor(account: string) {
    super(`Account ${account} is changing too fast; retry with the same idempotency key`, 'ECONOMY_BUSY');
  }
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
