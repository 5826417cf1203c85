import { errorFactory } from '../../platform/errors';

/** The NPC brain's codes, with their statuses in one place. */
export const NPC_ERRORS = {
  NPC_NOT_FOUND: { status: 404, title: 'Not Found' },
  /** A player asking for another player's history with an NPC. */
  NOT_YOUR_HISTORY: { status: 403, title: 'Forbidden' },
} as const;

/** One of the NPC brain's codes. */
export type NpcErrorCode = keyof typeof NPC_ERRORS;

/** `npcError('CODE', detail)`: the AppError that code answers with. */
export const npcError = errorFactory(NPC_ERRORS);
