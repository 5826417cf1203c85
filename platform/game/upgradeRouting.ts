import type { IncomingMessage } from 'node:http';
import { matchMaker } from '@colyseus/core';
import { AppError, NotFoundError, UnauthorizedError } from '../errors';

/** Colyseus's room socket path: `/<processId>/<roomId>`, with the seat reservation in `?sessionId=`. */
const ROOM_SOCKET_PATH = /^\/([a-zA-Z0-9_-]+)\/([a-zA-Z0-9_-]+)$/;

/** 404 for an upgrade to a path no channel of this process serves. */
export function noChannelAt(req: IncomingMessage): AppError {
  return new NotFoundError(`No WebSocket channel at ${(req.url ?? '/').split('?')[0]}`, 'ROUTE_NOT_FOUND');
}

/**
 * Why Colyseus must not take this upgrade, or undefined when it may. A room socket is served only on a room of
 * this process (`/<processId>/<roomId>`, else 404) and only for a seat reserved through matchmaking, or a
 * reconnection of a client the room still holds (`sessionId` + `reconnectionToken`): the seat reservation is the
 * credential of a room socket, so a missing or unknown one is 401 before the upgrade. Colyseus's latency probe (a
 * socket without a room) is not served.
 */
export function colyseusUpgradeRefusal(req: IncomingMessage): AppError | undefined {
  let url: URL;
  try {
    url = new URL(`ws://server${req.url ?? '/'}`);
  } catch {
    return noChannelAt(req);
  }
  const match = ROOM_SOCKET_PATH.exec(url.pathname);
  const room = match ? matchMaker.getLocalRoomById(match[2]) : undefined;
  if (!room) return noChannelAt(req);
  const sessionId = url.searchParams.get('sessionId');
  if (!sessionId) return new UnauthorizedError('Join the room through matchmaking first');
  const reconnectionToken = url.searchParams.get('reconnectionToken') ?? undefined;
  if (!room.hasReservedSeat(sessionId, reconnectionToken)) {
    return new UnauthorizedError(
      'No seat is reserved for this session, or it was already taken',
      'INVALID_CREDENTIAL',
    );
  }
  return undefined;
}
