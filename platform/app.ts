import express, { type RequestHandler } from 'express';
import { monitor } from '@colyseus/monitor';
import type { Logger } from 'pino';
import { hasRole, type Config } from './config';
import { requestContext } from './http/requestContext';
import { httpMetrics } from './http/httpMetrics';
import { errorHandler, notFoundHandler } from './http/errorHandlers';
import { jsonBody } from './http/jsonBody';
import { createLimiter, rateLimit } from './http/rateLimit';
import { ForbiddenError } from './errors';
import { ApiRoutes } from './http/routes';
import { matchmakingRouter } from './game/matchmaking';
import { monitorRoomGuard } from './game/monitorRoutes';
import type { RoomDefinition } from './game/gameServer';
import { monitorContentSecurityPolicy, securityHeaders } from './http/securityHeaders';
import type { Stores } from './stores';

/** A service area's HTTP routes, mounted when the process has the `api` role. */
export type ServiceRegistrar = (routes: ApiRoutes) => void;

export interface AppDependencies {
  config: Config;
  logger: Logger;
  stores: Stores;
  /** Routes mounted in every role before the body parser (the health probes). */
  probes: ServiceRegistrar[];
  services: ServiceRegistrar[];
  /** Guards admin pages (the Colyseus monitor); without one they are closed. */
  adminGuard?: RequestHandler[];
  /** Room types of the game role: matchmaking authenticates with their `authenticate`. */
  rooms?: RoomDefinition[];
  /** The allowed-origin policy (CORS) matchmaking follows; without it no CORS headers are sent. */
  cors?: RequestHandler;
}

/** Orchestrator probes are never rate limited. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const adminPagesClosed: RequestHandler = (_req, _res, next) =>
  next(new ForbiddenError('Admin pages need the identity service', 'ADMIN_DISABLED'));

const API_INFO = {
  title: 'Forge Platform API',
  version: '0.1.0',
  description:
    'HTTP interface of Forge Platform. Every error is an RFC 9457 problem (application/problem+json).',
};

/**
 * The Express application: request context → security headers → metrics → gateway rate limit → matchmaking and
 * monitor (game role) → JSON body (size and depth capped) → probes (every role) and service routes (api role) →
 * OpenAPI → 404 → the one error handler.
 */
export function createApp(deps: AppDependencies): express.Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestContext(app, deps.logger));
  app.use(securityHeaders({ https: config.PUBLIC_BASE_URL.startsWith('https:') }));
  app.use(httpMetrics);
  const gatewayLimiter = createLimiter({
    redis: deps.stores.redis,
    keyPrefix: 'ratelimit:gateway:',
    points: config.GATEWAY_RATE_LIMIT_PER_SECOND,
    durationSeconds: 1,
    blockOverLimitInMemory: true,
  });
  app.use(rateLimit(gatewayLimiter, { skip: (req) => PROBE_PATHS.has(req.path) }));

  const routes = new ApiRoutes();
  for (const register of deps.probes) register(routes);

  if (hasRole(config, 'game')) {
    app.use(
      matchmakingRouter({
        rooms: deps.rooms ?? [],
        cors: deps.cors,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
      }),
    );
    app.use(
      '/colyseus',
      monitorContentSecurityPolicy,
      ...(deps.adminGuard ?? [adminPagesClosed]),
      monitorRoomGuard,
      monitor(),
    );
  }

  app.use(jsonBody(config.BODY_LIMIT_BYTES));
  if (hasRole(config, 'api')) for (const register of deps.services) register(routes);
  app.use(routes.router);

  const openapi = routes.document(API_INFO);
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
