import type { RequestHandler } from 'express';
import { matchMaker } from '@colyseus/core';
import { NotFoundError } from '../errors';

/** The monitor's per-room API paths (relative to its mount point), which take `?roomId=`. */
const ROOM_PATHS = new Set(['/api/room', '/api/room/call']);

/**
 * In front of the Colyseus monitor: a request for a room that does not exist (or names none) is a 404 problem
 * `MONITOR_ROOM_NOT_FOUND`, where the monitor itself would answer a bare 500.
 */
export const monitorRoomGuard: RequestHandler = (req, _res, next) => {
  if (!ROOM_PATHS.has(req.path)) {
    next();
    return;
  }
  const roomId = typeof req.query.roomId === 'string' ? req.query.roomId : '';
  const missing = () => next(new NotFoundError(`No room "${roomId}"`, 'MONITOR_ROOM_NOT_FOUND'));
  if (!roomId) {
    missing();
    return;
  }
  matchMaker.getRoomById(roomId).then((room) => (room ? next() : missing()), next);
};
