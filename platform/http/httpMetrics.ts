import type { RequestHandler } from 'express';
import { httpRequestDuration } from '../metrics';

/**
 * Observes every request's duration. The route label is the route template the route helper recorded (never the
 * raw URL, which would explode label cardinality); requests no route took are labelled "unmatched".
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const stop = httpRequestDuration.startTimer();
  res.once('finish', () => {
    const template: unknown = res.locals.routeTemplate;
    const route = typeof template === 'string' ? template : 'unmatched';
    stop({ method: req.method, route, status_code: String(res.statusCode) });
  });
  next();
};
