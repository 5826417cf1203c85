import { AppError, ConflictError, ValidationError, type FieldError } from '../../platform/errors';

/**
 * Errors an action can end in. Each is an `AppError` with a stable code, so the room (error event or request
 * rejection), REST (problem body) and the plain WebSocket channel all report the same thing. A rejected
 * action has changed nothing.
 */

/** Every reason the world's rules refuse an action (409), one catalogue for clients to switch on. */
export const WORLD_RULE_CODES = [
  'ALREADY_FIGHTING',
  'ALREADY_GROUPED',
  'ALREADY_RESTING',
  'DEAD',
  'FULL_HEALTH',
  'GROUP_FULL',
  'HAS_COMPANION',
  'IN_COMBAT',
  'MARKET_UNAVAILABLE',
  'MISSING_INGREDIENTS',
  'NOT_CARRIED',
  'NOT_ENOUGH',
  'NOT_ENOUGH_MONEY',
  'NOT_EQUIPPABLE',
  'NOT_FIGHTING',
  'NOT_FOR_SALE',
  'NOT_IN_AREA',
  'NOT_IN_GROUP',
  'NOT_USABLE',
  'NO_ACTIVE_QUESTS',
  'NO_BROKER',
  'NO_COMPANION',
  'NO_COMPANION_OFFER',
  'NO_EXIT',
  'NO_INVITE',
  'NO_OFFER',
  'NO_RECIPIENT',
  'NO_SUCH_CREATURE',
  'NO_SUCH_ITEM',
  'NO_SUCH_NPC',
  'NO_SUCH_PLAYER',
  'NO_SUCH_QUEST',
  'NO_SUCH_RECIPE',
  'NO_SUCH_ROOM',
  'NO_SUCH_TARGET',
  'NO_SUCH_THING',
  'NO_SUCH_TOPIC',
  'NPC_REFUSES',
  'NPC_WONT_BUY',
  'OUT_OF_STOCK',
  'QUEST_ACTIVE',
  'QUEST_CLOSED',
  'QUEST_DONE',
  'QUEST_GIVER_ABSENT',
  'QUEST_INCOMPLETE',
  'QUEST_LOCKED',
  'PRESENCE_REQUIRED',
  'QUESTION_REQUIRED',
  'STATION_REQUIRED',
] as const;
export type WorldRuleCode = (typeof WORLD_RULE_CODES)[number];

/** Codes for an action the room cannot take at all: malformed (400), not a known action, or sent to another area. */
export const WORLD_PROTOCOL_CODES = ['INVALID_ACTION', 'UNKNOWN_ACTION', 'WRONG_AREA'] as const;
export type WorldProtocolCode = (typeof WORLD_PROTOCOL_CODES)[number];

/** Every code an action can fail with: the rule codes plus the protocol-level ones. */
export type WorldActionErrorCode =
  WorldRuleCode | WorldProtocolCode | 'COMPANION_NOT_PURCHASABLE' | 'WORLD_UNAVAILABLE' | 'INTERNAL_ERROR';

/** 409: the action is well-formed but the world does not allow it now (no such exit, in combat, ...). */
export class ActionRejectedError extends ConflictError {
  constructor(code: WorldRuleCode, detail: string) {
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
export function reject(code: WorldRuleCode, detail: string): ActionRejectedError {
  return new ActionRejectedError(code, detail);
}

/** The plain, serialisable form of an action error (crosses process boundaries and goes to clients). */
export interface ActionErrorBody {
  status: number;
  code: WorldActionErrorCode;
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
      code: error.code as WorldActionErrorCode,
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
