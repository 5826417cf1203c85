import express, { type Request, type RequestHandler, type Router } from 'express';
import { matchMaker } from '@colyseus/core';
import { createAuthContext, getTransport } from '@colyseus/core/Transport';
import { NotFoundError, UnauthorizedError, UnavailableError, ValidationError } from '../errors';
import { jsonBody } from '../http/jsonBody';
import { MATCHMAKING_ERROR_CODES, matchmakingError } from './matchmakingErrors';
import type { RoomDefinition } from './gameServer';

/** The matchmaker methods a client may call; `joinById` and `reconnect` take a room id in place of a room type. */
const METHODS = new Set(['joinOrCreate', 'create', 'join', 'joinById', 'reconnect']);
const BY_ROOM_ID = new Set(['joinById', 'reconnect']);

export interface MatchmakingOptions {
  rooms: RoomDefinition[];
  /** The platform's allowed-origin policy (CORS); without one no CORS headers are sent and browsers stay same-origin. */
  cors?: RequestHandler;
  bodyLimitBytes: number;
}

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header?.toLowerCase().startsWith('bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

/** The room type a call addresses: the path's room name, or the type of the room whose id it names. */
async function roomTypeOf(method: string, roomName: string): Promise<string> {
  if (!BY_ROOM_ID.has(method)) return roomName;
  const room = await matchMaker.getRoomById(roomName);
  if (!room) throw new NotFoundError('No open room with that id', MATCHMAKING_ERROR_CODES.roomNotFound);
  return room.name;
}

/** Checks the caller's session against the room type's `authenticate` before any seat is reserved. */
async function authenticate(req: Request, definition: RoomDefinition): Promise<void> {
  if (!definition.authenticate) return;
  const token = bearerToken(req);
  if (!token) throw new UnauthorizedError('Present your session token to join a room');
  if (!(await definition.authenticate(token)))
    throw new UnauthorizedError('The credential is invalid, expired or revoked', 'INVALID_CREDENTIAL');
}

/**
 * `POST /matchmake/{method}/{roomName}`, in place of Colyseus's own middleware: the platform's CORS policy, JSON
 * body with the platform's limits, authentication at matchmaking (a room type whose definition has `authenticate`
 * reserves no seat without a valid session), the seat reservation as JSON, and every failure as problem JSON with a
 * real HTTP status (see `matchmakingError`).
 */
export function matchmakingRouter(options: MatchmakingOptions): Router {
  const router = express.Router();
  const definitions = new Map(options.rooms.map((room) => [room.name, room]));
  if (options.cors) router.use('/matchmake', options.cors);
  router.post('/matchmake/:method/:roomName', jsonBody(options.bodyLimitBytes), async (req, res, next) => {
    try {
      const { method, roomName } = req.params as { method: string; roomName: string };
      if (!METHODS.has(method))
        throw new NotFoundError(`No matchmaking method ${method}`, MATCHMAKING_ERROR_CODES.unknownMethod);
      const body: unknown = req.body ?? {};
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new ValidationError('The body must be a JSON object of room options', [
          { path: 'body', message: 'expected an object' },
        ]);
      const definition = definitions.get(await roomTypeOf(method, roomName));
      if (!definition)
        throw new NotFoundError('No room type of that name', MATCHMAKING_ERROR_CODES.unknownRoomType);
      await authenticate(req, definition);
      if (matchMaker.state === matchMaker.MatchMakerState.SHUTTING_DOWN)
        throw new UnavailableError('The game server is shutting down', 'SHUTTING_DOWN');
      const reservation = (await matchMaker.controller
        .invokeMethod(
          method,
          roomName,
          body,
          createAuthContext({ headers: req.headers as Record<string, string | undefined>, req }),
        )
        .catch((error: unknown) => Promise.reject(matchmakingError(error)))) as Record<string, unknown>;
      const transport = getTransport();
      if (transport.protocol !== undefined) reservation.protocol = transport.protocol;
      if (transport.fingerprint !== undefined) reservation.fingerprint = transport.fingerprint;
      res.status(200).json(reservation);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
