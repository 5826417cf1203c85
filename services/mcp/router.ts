import { z } from 'zod';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import { ValidationError } from '../../platform/errors';
import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../../access/authGuard';
import { renderMcpError, type McpEndpoint } from './mcpEndpoint';
import { presentHealth, presentHealthDetail, presentProtectedResource, presentUsage } from './presenters';
import {
  GatewayHealthDetailSchema,
  GatewayHealthSchema,
  ProtectedResourceSchema,
  UsageQuerySchema,
  UsageReportSchema,
} from './schemas';
import { requireAccess } from './toolAccess';
import { ACCESS } from './toolDefinition';
import type { UsageMeter } from './usageMeter';
import type { WorkerHealth } from './workerHealth';

/** What the gateway's routes call. */
export interface McpRouteDependencies {
  endpoint: McpEndpoint;
  health: WorkerHealth;
  sessions: () => { open: number; max: number; idleSeconds: number };
  guard: AuthGuard;
  baseUrl: (req: Request) => string;
  usage: UsageMeter;
  clock: Clock;
}

/** The most days one usage read spans. */
const MAX_USAGE_DAYS = 93;

const MCP_DESCRIPTION =
  'MCP Streamable HTTP, protocol 2026-07-28 (no sessions: `server/discover`, every request carries its version and ' +
  'capabilities in `_meta`, with `Mcp-Method`/`Mcp-Name` headers) and 2025-11-25 and earlier (`initialize`, then ' +
  'the `Mcp-Session-Id` it returned). JSON-RPC requests with `Authorization: Bearer <session or service token>` and ' +
  '`Accept: application/json, text/event-stream`. `?catalogue=starter` and `?groups=brain,world` narrow ' +
  '`tools/list`. Errors are JSON-RPC error objects with the problem details in `error.data`: 400 ' +
  'MCP_CATALOGUE_INVALID, 401 (with `WWW-Authenticate: Bearer resource_metadata=…`), 403 MCP_ORIGIN_FORBIDDEN, ' +
  '404 MCP_SESSION_NOT_FOUND (expired or closed: initialize again), 429 MCP_CALLER_SESSION_LIMIT, 503 ' +
  'MCP_SESSION_LIMIT.';

/** A JSON-RPC answer of /mcp (a result or an error; the MCP specification defines the rest). */
const McpMessageSchema = z
  .object({ jsonrpc: z.literal('2.0') })
  .loose()
  .meta({ id: 'McpMessage', description: 'JSON-RPC 2.0 message' });

/** A JSON-RPC error answer of /mcp: the problem's fields travel in `error.data`. */
const McpErrorSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ id: 'McpError', description: 'JSON-RPC 2.0 error object' });

/** SPEC 4.3: `/mcp`, its RFC 9728 metadata, `GET /health` (public) and `GET /health/workers` (operators). */
export function registerMcpRoutes(routes: ApiRoutes, deps: McpRouteDependencies): void {
  const handleMcp = async ({ req, res }: { req: Request; res: Response }) => {
    await deps.endpoint.handle(req, res);
    return { status: res.statusCode };
  };
  // Errors of /mcp are JSON-RPC error objects (the MCP transport's), their problem details in `error.data`.
  const rpcError = (description: string) => ({ description, schema: McpErrorSchema });
  const mcpErrors = {
    400: rpcError('MCP_CATALOGUE_INVALID, or a request the transport refuses'),
    401: rpcError('Missing or invalid bearer token (`WWW-Authenticate` names the resource metadata)'),
    403: rpcError('MCP_ORIGIN_FORBIDDEN'),
    404: rpcError('MCP_SESSION_NOT_FOUND: initialize again'),
    429: rpcError('MCP_CALLER_SESSION_LIMIT, or rate limited'),
    503: rpcError('MCP_SESSION_LIMIT'),
  };
  const mcpResponses = {
    200: {
      description: 'JSON-RPC response, or an event stream of them (`subscriptions/listen`)',
      schema: McpMessageSchema,
      alsoAs: { 'text/event-stream': z.string() },
    },
    202: { description: 'Notification accepted (no body)' },
    ...mcpErrors,
  };

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
    responses: { ...mcpErrors, 405: rpcError('This gateway sends no server-initiated messages') },
    handler: handleMcp,
  });
  routes.add({
    method: 'delete',
    path: '/mcp',
    summary: 'End an MCP session (Mcp-Session-Id)',
    tags: ['mcp'],
    security: 'bearer',
    responses: { 200: { description: 'Session closed; its id now answers 404' }, ...mcpErrors },
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

  routes.add({
    method: 'get',
    path: '/admin/mcp/usage',
    summary: 'MCP usage for billing and throttling: calls, errors and cost units per day, caller and tool',
    tags: ['mcp', 'admin'],
    security: 'admin',
    middleware: requireAccess(deps.guard, ACCESS.operator),
    request: { query: UsageQuerySchema },
    responses: { 200: { description: 'Usage of the days asked for', schema: UsageReportSchema } },
    handler: async ({ query }) => {
      const today = new Date(deps.clock.now()).toISOString().slice(0, 10);
      const from = query.from ?? query.to ?? today;
      const to = query.to ?? (query.from && query.from > today ? query.from : today);
      if (Date.parse(to) - Date.parse(from) > (MAX_USAGE_DAYS - 1) * 86_400_000) {
        throw new ValidationError(`At most ${MAX_USAGE_DAYS} days per read`, [
          { path: 'query.from', message: `from..to spans more than ${MAX_USAGE_DAYS} days` },
        ]);
      }
      const rows = await deps.usage.read({ ...query, from, to });
      return { status: 200, body: presentUsage(from, to, rows) };
    },
  });
}
