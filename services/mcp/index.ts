import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { originMatcher } from '../../platform/http/corsPolicy';
import { createLimiter, type Limiter } from '../../platform/http/rateLimit';
import { hasRole, type Config } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import { AgentContent } from './agentContent';
import type { AuditRecorder } from '../../models/AuditEvent';
import { CallerQuotas } from './callerQuotas';
import { ConfirmationState } from './confirmations';
import { createGatewayServer, type GatewayServerDependencies } from './gatewayServer';
import { McpEndpoint } from './mcpEndpoint';
import { registerMcpRoutes } from './router';
import { callerClass, callerKey } from './toolAccess';
import { SessionRegistry } from './sessionRegistry';
import { ToolCalls } from './toolCalls';
import { ToolCatalogue } from './toolCatalogue';
import { UsageMeter } from './usageMeter';
import type { Worker } from './toolDefinition';
import { WorkerHealth } from './workerHealth';
import { gatewayWorker, type AuditReader } from './workers/gateway';
import { productWorkers, type WorkerSources } from './workers';

export type { WorkerSources } from './workers';

/** The gateway's version, reported in `initialize` and `server/discover`. */
const GATEWAY_VERSION = '0.2.0';

/** What the MCP area is built from: the identity service and the other areas' service interfaces. */
export interface McpAreaSources extends Omit<WorkerSources, 'auth' | 'maxDocumentsPerIngest'> {
  auth: Pick<AuthService, 'accounts' | 'sessions' | 'guard'>;
  /** The platform's audit log (services/admin): every tool call is recorded there, and the gateway reads it back. */
  audit: AuditRecorder & AuditReader;
}

/**
 * The MCP tool gateway (SPEC 1, 4.3): `/mcp` (Streamable HTTP: 2026-07-28 per request, 2025-11-25 and older with
 * sessions), the RFC 9728 metadata, `GET /health`, `GET /health/workers` and `GET /admin/mcp/usage`. Its tools come
 * from the workers the areas contribute (`workers/index.ts`) plus its own; every call is checked, limited, charged
 * to the caller's durable quotas, audited to the platform's audit log, counted and metered.
 */
export async function createMcpArea(
  context: PlatformContext,
  sources: McpAreaSources,
): Promise<ProductParts> {
  const { config, stores, clock, logger } = context;
  if (!hasRole(config, 'api')) return {};
  const log = logger.child({ component: 'mcp' });
  const { audit } = sources;
  // The gateway's own worker reads the catalogue, health and sessions built from the full list of workers.
  const late: {
    catalogue?: ToolCatalogue;
    health?: WorkerHealth;
    sessions?: SessionRegistry;
    usage?: UsageMeter;
  } = {};
  const sessionFigures = () => ({
    open: late.sessions?.size ?? 0,
    max: config.MCP_MAX_SESSIONS,
    idleSeconds: config.MCP_SESSION_IDLE_SECONDS,
  });
  const workers: Worker[] = [
    ...productWorkers({ ...sources, maxDocumentsPerIngest: config.BRAIN_INGEST_MAX_DOCUMENTS }),
    gatewayWorker({
      catalogue: () => late.catalogue as ToolCatalogue,
      health: () => late.health as WorkerHealth,
      audit,
      sessions: sessionFigures,
    }),
  ];
  const prefix = config.MCP_REDIS_KEY_PREFIX;
  const catalogue = new ToolCatalogue(workers);
  const health = new WorkerHealth({
    workers,
    checks: stores.checks,
    clock,
    checkTimeoutMs: config.READINESS_TIMEOUT_MS,
  });
  Object.assign(late, { catalogue, health });
  const usage = new UsageMeter({
    redis: stores.redis,
    clock,
    retentionDays: config.MCP_USAGE_RETENTION_DAYS,
    keyPrefix: `${prefix}usage:`,
    onError: (error) => log.warn({ err: error }, 'MCP usage not written yet; kept for the next write'),
  });
  late.usage = usage;
  const calls = new ToolCalls({
    catalogue,
    health,
    audit,
    callerLimiter: createLimiter({
      redis: stores.redis,
      keyPrefix: `${prefix}caller:`,
      points: config.MCP_CALLS_PER_MINUTE,
      durationSeconds: 60,
    }),
    toolLimiter: toolLimiters(catalogue, config, stores.redis),
    quotas: new CallerQuotas({
      redis: stores.redis,
      keyPrefix: `${prefix}quota:`,
      unitsPerWindow: config.MCP_QUOTA_UNITS_PER_DAY,
      toolCallsPerWindow: config.MCP_QUOTA_TOOL_CALLS_PER_DAY,
      tools: workers.flatMap((worker) => worker.tools),
    }),
    usage,
    callerLabel: config.MCP_METRICS_PER_CALLER ? callerKey : callerClass,
    clock,
  });
  const server: GatewayServerDependencies = {
    catalogue,
    calls,
    content: new AgentContent(workers),
    confirmations: new ConfirmationState({
      key: config.MCP_CONFIRMATION_KEY,
      serviceToken: config.BRAIN_SERVICE_TOKEN,
    }),
    version: GATEWAY_VERSION,
  };
  const registry = new SessionRegistry({
    idleMs: config.MCP_SESSION_IDLE_SECONDS * 1000,
    maxSessions: config.MCP_MAX_SESSIONS,
    maxPerCaller: config.MCP_MAX_SESSIONS_PER_CALLER,
    clock,
    logger: log,
    createServer: () => createGatewayServer(server, 'legacy'),
  });
  late.sessions = registry;
  // 2026-07-28: a server instance per request from the same definitions; 2025-era traffic never reaches it.
  const modern = createMcpHandler(() => createGatewayServer(server, 'modern'), {
    legacy: 'reject',
    responseMode: 'auto',
    onerror: (error) => log.debug({ err: error }, 'MCP request refused'),
  });
  const endpoint = new McpEndpoint({
    sessions: registry,
    modern,
    groups: catalogue.groups,
    authenticate: sources.auth.guard.authenticate(),
    originAllowed: originPolicy(config),
    resourceMetadataUrl: () => `${baseUrlOf(config)}/.well-known/oauth-protected-resource/mcp`,
  });
  log.info({ tools: catalogue.size, workers: workers.map((worker) => worker.name) }, 'MCP gateway ready');
  return {
    services: [
      (routes) =>
        registerMcpRoutes(routes, {
          endpoint,
          health,
          sessions: sessionFigures,
          guard: sources.auth.guard,
          baseUrl: () => baseUrlOf(config),
          usage,
          clock,
        }),
    ],
    close: async () => {
      await modern.close();
      await registry.closeAll();
      await usage.close().catch((error: unknown) => log.warn({ err: error }, 'MCP usage not written'));
    },
  };
}

/** One limiter per tool (its own calls per minute, or MCP_TOOL_CALLS_PER_MINUTE), keyed by caller. */
function toolLimiters(catalogue: ToolCatalogue, config: Config, redis: PlatformContext['stores']['redis']) {
  const limiters = new Map<string, Limiter>();
  for (const worker of catalogue.workers) {
    for (const tool of worker.tools) {
      limiters.set(
        tool.name,
        createLimiter({
          redis,
          keyPrefix: `${config.MCP_REDIS_KEY_PREFIX}tool:${tool.name}:`,
          points: tool.callsPerMinute ?? config.MCP_TOOL_CALLS_PER_MINUTE,
          durationSeconds: 60,
        }),
      );
    }
  }
  return (tool: string) => limiters.get(tool) as Limiter;
}

/**
 * Whether a request's Origin may call `/mcp`: requests without one (agents, CLIs) may; browsers only from
 * MCP_ALLOWED_ORIGINS, or by default from PUBLIC_BASE_URL's origin or the request's own host (DNS rebinding
 * protection: a page on another origin cannot drive a local gateway).
 */
function originPolicy(config: Config): (req: Request) => boolean {
  const listed = config.MCP_ALLOWED_ORIGINS?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const matches = listed ? originMatcher(listed) : undefined;
  const publicOrigin = new URL(config.PUBLIC_BASE_URL).origin;
  return (req) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    if (matches) return matches(origin);
    if (origin === publicOrigin) return true;
    return URL.canParse(origin) && new URL(origin).host === req.headers.host;
  };
}

/** PUBLIC_BASE_URL without a trailing slash: the URL agents reach this server on. */
function baseUrlOf(config: Config): string {
  return config.PUBLIC_BASE_URL.replace(/\/$/, '');
}
