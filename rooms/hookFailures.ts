import type { Client, RoomException } from '@colyseus/core';
import type { Logger } from 'pino';

/** Logs a failed room hook with the player and the message that caused it (for `onMessage` failures). */
export function logHookFailure(log: Logger, error: RoomException, methodName: string): void {
  const exception = error as RoomException & { client?: Client; type?: unknown; payload?: unknown };
  const userId = (exception.client?.userData as { userId?: string } | undefined)?.userId;
  log.error(
    {
      err: error,
      cause: error.cause,
      method: methodName,
      ...(userId ? { userId } : {}),
      ...(exception.type !== undefined ? { messageType: exception.type, payload: exception.payload } : {}),
    },
    'area room hook failed',
  );
}
