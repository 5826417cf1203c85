import { ErrorCode, ServerError } from '@colyseus/core';
import { AppError, DependencyUnavailableError, NotFoundError, UnauthorizedError } from '../errors';

/** Codes of the matchmaking routes (`POST /matchmake/{method}/{roomName}`). */
export const MATCHMAKING_ERROR_CODES = {
  unknownMethod: 'MATCHMAKE_UNKNOWN_METHOD',
  unknownRoomType: 'MATCHMAKE_UNKNOWN_ROOM_TYPE',
  noRoom: 'MATCHMAKE_NO_ROOM',
  roomNotFound: 'MATCHMAKE_ROOM_NOT_FOUND',
  expired: 'MATCHMAKE_EXPIRED',
  unavailable: 'MATCHMAKE_UNAVAILABLE',
  rejected: 'MATCHMAKE_REJECTED',
} as const;

/** A room's own refusal (`ServerError(4409, "WRONG_AREA: village")`): its `CODE:` prefix, else a generic code. */
const ROOM_MESSAGE = /^([A-Z][A-Z0-9_]{2,63}):\s*(.*)$/s;

function roomRefusal(error: ServerError): AppError {
  const status = error.code - 4000;
  const match = ROOM_MESSAGE.exec(error.message);
  const code = match?.[1] ?? MATCHMAKING_ERROR_CODES.rejected;
  const title = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Bad Request';
  return new AppError(status, code, title, { detail: match?.[2] || error.message });
}

/**
 * Turns what Colyseus's matchmaker throws into an AppError with a real HTTP status: unknown room types and rooms 404,
 * an expired reconnection 410, a failed auth 401, a room's own 44xx refusal the status it names (4409 → 409), a
 * seat that cannot be reserved (room full, process gone) 503; anything else stays a fault (500, logged).
 */
export function matchmakingError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof ServerError)) return error;
  const codes = MATCHMAKING_ERROR_CODES;
  switch (error.code) {
    case ErrorCode.MATCHMAKE_NO_HANDLER:
      return new NotFoundError('No room type of that name', codes.unknownRoomType);
    case ErrorCode.MATCHMAKE_INVALID_CRITERIA:
      return new NotFoundError('No room matches the given criteria', codes.noRoom);
    case ErrorCode.MATCHMAKE_INVALID_ROOM_ID:
      return new NotFoundError('No open room with that id', codes.roomNotFound);
    case ErrorCode.MATCHMAKE_EXPIRED:
      return new AppError(410, codes.expired, 'Gone', {
        detail: 'The reconnection token is invalid or expired',
      });
    case ErrorCode.AUTH_FAILED:
      return new UnauthorizedError('The room refused the credential', 'INVALID_CREDENTIAL');
    case ErrorCode.MATCHMAKE_UNHANDLED:
      return new DependencyUnavailableError('A seat in the room', codes.unavailable, error);
    default:
      return error.code >= 4400 && error.code < 4500 ? roomRefusal(error) : error;
  }
}
