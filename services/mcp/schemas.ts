import { z } from 'zod';

/**
 * HTTP shapes of the gateway's own routes: the RFC 9728 protected-resource metadata and the health routes. The
 * `/mcp` endpoint itself speaks JSON-RPC (MCP Streamable HTTP), described by the protocol, not here.
 */

const workerState = z.enum(['up', 'degraded', 'down']);

/** `GET /.well-known/oauth-protected-resource/mcp` (RFC 9728 section 3.2). */
export const ProtectedResourceSchema = z
  .object({
    resource: z.string().meta({ description: 'The protected resource: this server’s /mcp URL' }),
    resource_name: z.string(),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_documentation: z.string(),
    token_sources: z
      .array(
        z.object({
          method: z.enum(['wallet', 'email', 'sso', 'service']),
          description: z.string(),
          endpoints: z.array(z.string()),
        }),
      )
      .meta({ description: 'How to obtain a bearer token for /mcp (this platform issues its own sessions)' }),
  })
  .meta({ id: 'McpProtectedResource' });
export type ProtectedResource = z.infer<typeof ProtectedResourceSchema>;

/** `GET /health`: public and minimal. */
export const GatewayHealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']).meta({
      description: 'ok: every worker up; down: every worker down (answered with 503); degraded otherwise',
    }),
    workers: z.array(z.object({ name: z.string(), state: workerState })),
  })
  .meta({ id: 'GatewayHealth' });
export type GatewayHealth = z.infer<typeof GatewayHealthSchema>;

/** One worker in `GET /health/workers`. */
export const WorkerReportSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    state: workerState,
    reason: z.string().optional().meta({ description: 'Why it is degraded or down' }),
    tools: z.number().int(),
    calls: z.number().int().meta({ description: 'Tool calls served by this process since start' }),
    errors: z.number().int().meta({
      description: 'Calls that failed on the gateway’s or the worker’s side (refusals by the area excluded)',
    }),
    latency_ms: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }).meta({
      description: 'Call latency over the last 128 calls',
    }),
    last_error: z
      .object({ at: z.string(), tool: z.string(), code: z.string(), message: z.string() })
      .nullable(),
    checked_at: z.string(),
  })
  .meta({ id: 'McpWorkerReport' });

/** `GET /health/workers`: operators, admins and the service token. */
export const GatewayHealthDetailSchema = z
  .object({
    status: GatewayHealthSchema.shape.status,
    tools: z.number().int(),
    sessions: z.object({
      open: z.number().int(),
      max: z.number().int(),
      idle_timeout_seconds: z.number().int(),
    }),
    workers: z.array(WorkerReportSchema),
  })
  .meta({ id: 'GatewayHealthDetail' });
export type GatewayHealthDetail = z.infer<typeof GatewayHealthDetailSchema>;

const day = z.iso.date().meta({ description: 'A UTC day, YYYY-MM-DD' });

/** `GET /admin/mcp/usage` query: UTC days from..to (default: today), at most 93 days, optionally a caller or tool. */
export const UsageQuerySchema = z
  .strictObject({
    from: day.optional(),
    to: day.optional(),
    caller: z
      .string()
      .regex(/^(service|user:[0-9a-f]{24})$/, 'service or user:<24 hex digits>')
      .optional()
      .meta({ description: 'One caller: `user:<id>` or `service`' }),
    tool: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/)
      .optional()
      .meta({ description: 'One tool' }),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type UsageQuery = z.infer<typeof UsageQuerySchema>;

const UsageRowSchema = z.object({
  day,
  caller: z.string().meta({ description: '`user:<id>` or `service`' }),
  tool: z.string(),
  calls: z.number().int().meta({ description: 'Calls, every outcome' }),
  errors: z
    .number()
    .int()
    .meta({ description: 'Calls that did not succeed (refusals, limits, bad arguments)' }),
  cost_units: z.number().int().meta({ description: 'Cost units charged (only calls where the tool acted)' }),
});

/** `GET /admin/mcp/usage`: per day, caller and tool, with totals per caller. */
export const UsageReportSchema = z
  .object({
    from: day,
    to: day,
    rows: z.array(UsageRowSchema),
    callers: z.array(
      z.object({
        caller: z.string(),
        calls: z.number().int(),
        errors: z.number().int(),
        cost_units: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'McpUsageReport' });
