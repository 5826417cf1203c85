import { AppError, ConflictError, ValidationError, type FieldError } from '../../platform/errors';

/**
 * Errors an action can end in. Each is an `AppError` with a stable code, so the room (error event or request
 * rejection), REST (problem body) and the plain WebSocket channel all report the same thing. A rejected
 * action has changed nothing.
 */

/** 409: the action is well-formed but the world does not allow it now (no such exit, in combat, ...). */
export class ActionRejectedError extends ConflictError {
  constructor(code: string, detail: string) {
    super(detail, code);
    this.name = 'ActionRejectedError';
  }
}

/** 400: the action message does not match any action schema. */
export class InvalidActionError extends ValidationError {
  constructor(detail: string, errors: FieldError[] = []) {
    super(detail, errors, 'INVALID_ACTION');
    this.name = 'InvalidActionError';
  }
}

/** 409: someone tried to buy, sell, give or trade a companion; companions have `is_purchasable: false`. */
export class CompanionNotPurchasableError extends ConflictError {
  constructor(companion: string) {
    super(
      `${companion} is a companion; companions can never be bought, sold or traded`,
      'COMPANION_NOT_PURCHASABLE',
    );
    this.name = 'CompanionNotPurchasableError';
  }
}

/** Shorthand used by the rule modules: `throw reject('NO_EXIT', 'You cannot go north from here.')`. */
export function reject(code: string, detail: string): ActionRejectedError {
  return new ActionRejectedError(code, detail);
}

/** The plain, serialisable form of an action error (crosses process boundaries and goes to clients). */
export interface ActionErrorBody {
  status: number;
  code: string;
  message: string;
  errors?: FieldError[];
  /** Set with `WRONG_AREA`: the area the character is in. */
  areaId?: string;
}

/** Turns any thrown value into an `ActionErrorBody`; unknown errors become a 500 `INTERNAL_ERROR` body. */
export function toErrorBody(error: unknown): ActionErrorBody {
  if (error instanceof AppError) {
    return {
      status: error.status,
      code: error.code,
      message: error.detail ?? error.message,
      ...(error.errors?.length ? { errors: error.errors } : {}),
      ...(error instanceof WrongAreaError ? { areaId: error.areaId } : {}),
    };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'The action failed on the server.' };
}

/** 409: the character is in another area; `areaId` says which room to use instead. */
export class WrongAreaError extends ConflictError {
  constructor(readonly areaId: string) {
    super(`Your character is in area "${areaId}"; join that area's room.`, 'WRONG_AREA', { areaId });
    this.name = 'WrongAreaError';
  }
}
