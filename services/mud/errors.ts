import { errorFactory } from '../../platform/errors';
import { WorldUnavailableError } from '../../rooms/actionGateway';

/**
 * The codes the world's HTTP routes and WebSocket channel answer with beyond the platform's own (401, 429, 404),
 * mapped to their status and title in one place. Action refusals come from the rooms (`rooms/rules/errors.ts`)
 * and pass through unchanged.
 */
export const MUD_ERRORS = {
  WORLD_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  MALFORMED_FRAME: { status: 400, title: 'Invalid request' },
  CHANNEL_FORBIDDEN: { status: 403, title: 'Forbidden' },
  UPGRADE_REQUIRED: { status: 426, title: 'Upgrade Required' },
  INVENTORY_BUSY: { status: 409, title: 'Conflict' },
  ITEM_NOT_IN_INVENTORY: { status: 409, title: 'Conflict' },
} as const satisfies Record<string, { status: number; title: string }>;

/** One of the world's own codes. */
export type MudErrorCode = keyof typeof MUD_ERRORS;

/** `mudError('CODE', detail)`: an error of the world's catalogue (WORLD_UNAVAILABLE comes from the gateway, below). */
export const mudError = errorFactory(MUD_ERRORS);

/** 503 WORLD_UNAVAILABLE, raised by the action gateway (rooms) and by a process that cannot reach the world. */
export { WorldUnavailableError };
