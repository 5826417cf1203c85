import client from 'prom-client';
import { registry } from '../../platform/metrics';

/** MCP tool calls, by tool, worker and outcome (ok, refused, denied, invalid, rate_limited, unavailable, error). */
export const mcpToolCalls = new client.Counter({
  name: 'mcp_tool_calls_total',
  help: 'MCP tool calls, by tool, worker and outcome',
  labelNames: ['tool', 'worker', 'outcome'] as const,
  registers: [registry],
});

/** MCP tool calls that did not succeed (every outcome but ok), by tool and outcome. */
export const mcpToolErrors = new client.Counter({
  name: 'mcp_tool_errors_total',
  help: 'MCP tool calls that did not succeed, by tool and outcome',
  labelNames: ['tool', 'outcome'] as const,
  registers: [registry],
});

/** MCP tool call latency in seconds (access check to result), by tool. */
export const mcpToolLatency = new client.Histogram({
  name: 'mcp_tool_latency_seconds',
  help: 'MCP tool call latency in seconds, by tool',
  labelNames: ['tool'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Open MCP sessions in this process. */
export const mcpSessionsOpen = new client.Gauge({
  name: 'mcp_sessions_open',
  help: 'Open MCP sessions in this process',
  registers: [registry],
});

/** MCP sessions closed, by reason (deleted, idle, shutdown). */
export const mcpSessionsClosed = new client.Counter({
  name: 'mcp_sessions_closed_total',
  help: 'MCP sessions closed, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/**
 * Metered MCP calls, by caller (its class, or its key with MCP_METRICS_PER_CALLER), tool and whether the call
 * charged the quota (`charged="true"`: the tool acted; confirmations asked, refusals before the handler: false).
 */
export const mcpUsageCalls = new client.Counter({
  name: 'mcp_usage_calls_total',
  help: 'Metered MCP tool calls, by caller, tool and whether they charged the quota',
  labelNames: ['caller', 'tool', 'charged'] as const,
  registers: [registry],
});

/** Cost units charged by MCP calls, by caller and tool (what an operator bills). */
export const mcpUsageCost = new client.Counter({
  name: 'mcp_usage_cost_units_total',
  help: 'Cost units charged by MCP tool calls, by caller and tool',
  labelNames: ['caller', 'tool'] as const,
  registers: [registry],
});
