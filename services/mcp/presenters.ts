import type { GatewayHealth, GatewayHealthDetail, ProtectedResource } from './schemas';
import type { WorkerReport } from './workerHealth';
import type { UsageRow } from './usageMeter';

/** ok when every worker is up, down when every one is down, degraded otherwise. */
export function overallStatus(reports: Pick<WorkerReport, 'state'>[]): GatewayHealth['status'] {
  if (reports.every((report) => report.state === 'up')) return 'ok';
  if (reports.every((report) => report.state === 'down')) return 'down';
  return 'degraded';
}

/** `GET /health`: each worker's state, no reasons or figures. */
export function presentHealth(reports: WorkerReport[]): GatewayHealth {
  return {
    status: overallStatus(reports),
    workers: reports.map((report) => ({ name: report.name, state: report.state })),
  };
}

/** `GET /health/workers`: states with reasons, figures and the session table's size. */
export function presentHealthDetail(
  reports: WorkerReport[],
  sessions: { open: number; max: number; idleSeconds: number },
): GatewayHealthDetail {
  return {
    status: overallStatus(reports),
    tools: reports.reduce((sum, report) => sum + report.tools, 0),
    sessions: { open: sessions.open, max: sessions.max, idle_timeout_seconds: sessions.idleSeconds },
    workers: reports.map((report) => ({
      name: report.name,
      description: report.description,
      state: report.state,
      ...(report.reason ? { reason: report.reason } : {}),
      tools: report.tools,
      calls: report.calls,
      errors: report.errors,
      latency_ms: report.latency_ms,
      last_error: report.last_error,
      checked_at: report.checked_at,
    })),
  };
}

/** The RFC 9728 metadata of `<baseUrl>/mcp`, naming the sign-in routes that issue its bearer tokens. */
export function presentProtectedResource(baseUrl: string): ProtectedResource {
  return {
    resource: `${baseUrl}/mcp`,
    resource_name: 'Forge Platform MCP tool gateway',
    bearer_methods_supported: ['header'],
    resource_documentation: `${baseUrl}/openapi.json`,
    token_sources: [
      {
        method: 'wallet',
        description: 'Sign in with Ethereum (EIP-4361); the verify answer’s token is the bearer token',
        endpoints: ['POST /auth/wallet/nonce', 'POST /auth/wallet/verify'],
      },
      {
        method: 'email',
        description: 'Register and verify an email address, then sign in with it',
        endpoints: ['POST /auth/email/register', 'POST /auth/email/verify', 'POST /auth/email/login'],
      },
      {
        method: 'sso',
        description: 'OpenID Connect single sign-on through the configured identity provider',
        endpoints: ['GET /auth/oidc/start'],
      },
      {
        method: 'service',
        description: 'Bots and agents run by the operator present the service token (BRAIN_SERVICE_TOKEN)',
        endpoints: [],
      },
    ],
  };
}

/** `GET /admin/mcp/usage`: the rows, and each caller's totals (most cost first). */
export function presentUsage(from: string, to: string, rows: UsageRow[]) {
  const callers = new Map<string, { caller: string; calls: number; errors: number; cost_units: number }>();
  for (const row of rows) {
    const total = callers.get(row.caller) ?? { caller: row.caller, calls: 0, errors: 0, cost_units: 0 };
    total.calls += row.calls;
    total.errors += row.errors;
    total.cost_units += row.cost_units;
    callers.set(row.caller, total);
  }
  const totals = [...callers.values()].sort(
    (a, b) => b.cost_units - a.cost_units || a.caller.localeCompare(b.caller),
  );
  return { from, to, rows, callers: totals };
}
