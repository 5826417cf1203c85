import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../platform/errors';
import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../auth/authGuard';
import { renderMcpError, type McpEndpoint } from './mcpEndpoint';
import { presentHealth, presentHealthDetail, presentProtectedResource } from './presenters';
import { GatewayHealthDetailSchema, GatewayHealthSchema, ProtectedResourceSchema } from './schemas';
import { requireAccess } from './toolAccess';
import { ACCESS } from './toolDefinition';
import type { WorkerHealth } from './workerHealth';

/** What the gateway's routes call. */
export interface McpRouteDependencies {
  endpoint: McpEndpoint;
  health: WorkerHealth;
  sessions: () => { open: number; max: number; idleSeconds: number };
  guard: AuthGuard;
  baseUrl: (req: Request) => string;
}

const MCP_DESCRIPTION =
  'MCP Streamable HTTP (protocol 2025-11-25 and earlier): JSON-RPC requests with `Authorization: Bearer <session ' +
  'or service token>`, `Accept: application/json, text/event-stream`, and after `initialize` the `Mcp-Session-Id` ' +
  'it returned. Errors are JSON-RPC error objects with the problem details in `error.data`: 401 (with ' +
  '`WWW-Authenticate: Bearer resource_metadata=…`), 403 MCP_ORIGIN_FORBIDDEN, 404 MCP_SESSION_NOT_FOUND (expired ' +
  'or closed: initialize again), 429 MCP_CALLER_SESSION_LIMIT, 503 MCP_SESSION_LIMIT.';

/** SPEC 4.3: `/mcp`, its RFC 9728 metadata, `GET /health` (public) and `GET /health/workers` (operators). */
export function registerMcpRoutes(routes: ApiRoutes, deps: McpRouteDependencies): void {
  const handleMcp = async ({ req, res }: { req: Request; res: Response }) => {
    await deps.endpoint.handle(req, res);
    return { status: res.statusCode };
  };
  const mcpResponses = { 200: { description: 'JSON-RPC response (or 202 for notifications)' } };

  routes.add({
    method: 'post',
    path: '/mcp',
    summary: 'MCP tool gateway: send a JSON-RPC request or notification',
    description: MCP_DESCRIPTION,
    tags: ['mcp'],
    security: 'bearer',
    responses: mcpResponses,
    handler: handleMcp,
  });
  routes.add({
    method: 'get',
    path: '/mcp',
    summary: 'MCP server-to-client stream: not offered (405)',
    tags: ['mcp'],
    security: 'bearer',
    responses: { 405: { description: 'This gateway sends no server-initiated messages' } },
    handler: handleMcp,
  });
  routes.add({
    method: 'delete',
    path: '/mcp',
    summary: 'End an MCP session (Mcp-Session-Id)',
    tags: ['mcp'],
    security: 'bearer',
    responses: { 200: { description: 'Session closed; its id now answers 404' } },
    handler: handleMcp,
  });
  routes.router.use('/mcp', (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (error instanceof AppError && !res.headersSent) renderMcpError(error, req, res);
    else next(error);
  });

  routes.add({
    method: 'get',
    path: '/.well-known/oauth-protected-resource/mcp',
    summary: 'OAuth 2.0 protected-resource metadata of /mcp (RFC 9728): how to obtain its bearer token',
    tags: ['mcp'],
    responses: { 200: { description: 'The metadata', schema: ProtectedResourceSchema } },
    handler: ({ req }) => ({ status: 200, body: presentProtectedResource(deps.baseUrl(req)) }),
  });

  routes.add({
    method: 'get',
    path: '/health',
    summary: 'Gateway health: each worker’s state (503 when every worker is down)',
    tags: ['mcp', 'health'],
    responses: {
      200: { description: 'At least one worker serves', schema: GatewayHealthSchema },
      503: { description: 'Every worker is down' },
    },
    handler: async () => {
      const body = presentHealth(await deps.health.report());
      return { status: body.status === 'down' ? 503 : 200, body };
    },
  });

  routes.add({
    method: 'get',
    path: '/health/workers',
    summary:
      'Worker status for operators: state and reason, tools, calls, errors, latency, last error, sessions',
    tags: ['mcp', 'health'],
    security: 'admin',
    middleware: requireAccess(deps.guard, ACCESS.operator),
    responses: { 200: { description: 'Every worker', schema: GatewayHealthDetailSchema } },
    handler: async () => ({
      status: 200,
      body: presentHealthDetail(await deps.health.report(), deps.sessions()),
    }),
  });
}
