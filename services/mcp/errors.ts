import { AppError, errorFactory } from '../../platform/errors';

/**
 * The gateway's error codes in one place: HTTP-level refusals of `/mcp` (answered as JSON-RPC errors carrying the
 * problem in `error.data`) and the codes of tool errors (`isError` results an agent reads and can act on).
 */
export const MCP_HTTP_ERRORS = {
  MCP_UNAUTHENTICATED: { status: 401, title: 'Unauthorized', rpc: -32001 },
  MCP_ORIGIN_FORBIDDEN: { status: 403, title: 'Forbidden', rpc: -32000 },
  MCP_SESSION_NOT_FOUND: { status: 404, title: 'Not Found', rpc: -32001 },
  MCP_SESSION_REQUIRED: { status: 400, title: 'Bad Request', rpc: -32000 },
  MCP_CALLER_SESSION_LIMIT: { status: 429, title: 'Too Many Requests', rpc: -32000 },
  MCP_SESSION_LIMIT: { status: 503, title: 'Service Unavailable', rpc: -32000 },
  MCP_SSE_NOT_OFFERED: { status: 405, title: 'Method Not Allowed', rpc: -32000 },
  MCP_CATALOGUE_INVALID: { status: 400, title: 'Invalid request', rpc: -32000 },
  ACCESS_REQUIRED: { status: 403, title: 'Forbidden', rpc: -32000 },
  GRAPH_SCOPE_FORBIDDEN: { status: 403, title: 'Forbidden', rpc: -32000 },
} as const;
export type McpHttpErrorCode = keyof typeof MCP_HTTP_ERRORS;

/** `mcpHttpError('CODE', detail)`: a refusal of an HTTP request to `/mcp` (rendered as a JSON-RPC error). */
export const mcpHttpError = errorFactory(MCP_HTTP_ERRORS);

/** The JSON-RPC error code an error of `/mcp` is rendered with: its catalogue entry's, else -32000. */
export function rpcCodeOf(error: AppError): number {
  return Object.hasOwn(MCP_HTTP_ERRORS, error.code)
    ? MCP_HTTP_ERRORS[error.code as McpHttpErrorCode].rpc
    : -32000;
}

/** Codes of tool errors (results with `isError: true`), with the outcome the audit log and metrics record. */
export const TOOL_ERROR_OUTCOMES = {
  TOOL_FORBIDDEN: 'denied',
  TOOL_INVALID_ARGUMENTS: 'invalid',
  TOOL_RATE_LIMITED: 'rate_limited',
  TOOL_QUOTA_EXCEEDED: 'quota_exceeded',
  TOOL_WORKER_DOWN: 'unavailable',
  TOOL_INTERNAL_ERROR: 'error',
  /** The caller declined or cancelled a confirmation (`confirmations.ts`): nothing was done. */
  TOOL_NOT_CONFIRMED: 'refused',
} as const;
export type ToolErrorCode = keyof typeof TOOL_ERROR_OUTCOMES;

/** Every outcome a tool call can have (audit `outcome`, metric label). */
export type ToolOutcome = 'ok' | 'refused' | 'input_required' | (typeof TOOL_ERROR_OUTCOMES)[ToolErrorCode];

/**
 * A tool call that did not produce a result: the code, a message written for the model, and when to retry.
 * `refused` errors come from the area the tool calls (e.g. the world's NO_EXIT) and keep that area's code.
 */
export class ToolCallError extends Error {
  constructor(
    readonly code: ToolErrorCode | string,
    message: string,
    readonly outcome: ToolOutcome,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ToolCallError';
  }

  /** The caller may not call the tool; `why` names what is missing. */
  static forbidden(tool: string, why: string): ToolCallError {
    return new ToolCallError('TOOL_FORBIDDEN', `You may not call ${tool}: ${why}.`, 'denied');
  }

  static invalidArguments(tool: string, problems: string[]): ToolCallError {
    return new ToolCallError(
      'TOOL_INVALID_ARGUMENTS',
      `Invalid arguments for ${tool}: ${problems.join('; ')}. Fix them and call again.`,
      'invalid',
    );
  }

  static rateLimited(scope: string, retryAfterSeconds: number): ToolCallError {
    return new ToolCallError(
      'TOOL_RATE_LIMITED',
      `Rate limit reached (${scope}). Retry after ${retryAfterSeconds} s.`,
      'rate_limited',
      retryAfterSeconds,
    );
  }

  /** A durable per-identity quota is spent; `retryAfterSeconds` is when its window resets. */
  static quotaExceeded(quota: string, retryAfterSeconds: number): ToolCallError {
    const at = new Date(Date.now() + retryAfterSeconds * 1000).toISOString();
    return new ToolCallError(
      'TOOL_QUOTA_EXCEEDED',
      `Quota spent (${quota}). It renews in ${retryAfterSeconds} s (at ${at}); new sessions do not reset it.`,
      'quota_exceeded',
      retryAfterSeconds,
    );
  }

  static workerDown(worker: string, reason: string): ToolCallError {
    return new ToolCallError(
      'TOOL_WORKER_DOWN',
      `The ${worker} worker is down (${reason}); its tools are unavailable. Try again later.`,
      'unavailable',
      30,
    );
  }
}
