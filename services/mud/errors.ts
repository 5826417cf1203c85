import { AppError, type AppErrorOptions } from '../../platform/errors';
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
} as const satisfies Record<string, { status: number; title: string }>;

/** One of the world's own codes. */
export type MudErrorCode = keyof typeof MUD_ERRORS;

/** An error of the world's catalogue: status and title from MUD_ERRORS. */
export class MudError extends AppError {
  constructor(
    code: Exclude<MudErrorCode, 'WORLD_UNAVAILABLE'>,
    detail: string,
    options: AppErrorOptions = {},
  ) {
    const { status, title } = MUD_ERRORS[code];
    super(status, code, title, { ...options, detail });
  }
}

/** 503 WORLD_UNAVAILABLE, raised by the action gateway (rooms) and by a process that cannot reach the world. */
export { WorldUnavailableError };
