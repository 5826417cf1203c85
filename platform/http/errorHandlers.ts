import type { ErrorRequestHandler, RequestHandler } from 'express';
import { NotFoundError } from '../errors';
import { sendProblem, toAppError } from './problem';

/** Last route: anything unmatched is a 404 problem naming the method and path. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`No route for ${req.method} ${req.path}`, 'ROUTE_NOT_FOUND'));
};

/**
 * The one error path: every failure becomes an RFC 9457 body. Faults (500) are logged at error with their stack
 * under the request id, deliberate 5xx answers (501, 503) at warn with their cause; the body carries only the id.
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  const { appError, internal } = toAppError(error);
  if (internal) req.log.error({ err: error }, 'request failed');
  else if (appError.status >= 500) req.log.warn({ err: error }, 'request failed');
  if (res.headersSent) {
    next(error);
    return;
  }
  sendProblem(req, res, appError);
};
