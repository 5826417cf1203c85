import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { AppError } from '../../platform/errors';
import type { Limiter } from '../../platform/http/rateLimit';
import type { Clock } from '../../platform/clock';
import type { Principal } from '../../access/principal';
import type { AuditRecorder } from '../../models/AuditEvent';
import type { CallerQuotas } from './callerQuotas';
import { confirmationNeeded, type ConfirmationRound } from './confirmations';
import { ToolCallError, type ToolOutcome } from './errors';
import { mcpToolCalls, mcpToolErrors, mcpToolLatency } from './metrics';
import { accessDenial, callerKey } from './toolAccess';
import type { CatalogueEntry, ToolCatalogue } from './toolCatalogue';
import type { UsageMeter } from './usageMeter';
import type { WorkerHealth } from './workerHealth';

/** Who is calling and from where (one HTTP request: of a 2025 session, or a 2026-07-28 request on its own). */
export interface CallContext {
  caller: Principal;
  ip: string | null;
  requestId: string | null;
  /** The 2025-era session; null on 2026-07-28 (no sessions). */
  sessionId: string | null;
  /** The protocol era: `modern` (2026-07-28) asks confirmations through `input_required`. */
  era: 'modern' | 'legacy';
  /** The 2026-07-28 round's confirmation answers and state. */
  confirmation?: ConfirmationRound;
  logger: Logger;
}

/** What ToolCalls needs. */
export interface ToolCallsDependencies {
  catalogue: ToolCatalogue;
  health: WorkerHealth;
  /** The platform's audit log (it redacts the arguments it keeps). */
  audit: AuditRecorder;
  /** Calls per caller over all tools. */
  callerLimiter: Limiter;
  /** Calls per caller of one tool. */
  toolLimiter: (tool: string) => Limiter;
  /** Durable per-identity quotas (per day), charged when a tool acts. */
  quotas: CallerQuotas;
  usage: UsageMeter;
  /** The `/metrics` caller label: the caller's key (MCP_METRICS_PER_CALLER) or its class. */
  callerLabel: (caller: Principal) => string;
  clock: Clock;
}

type CallAnswer = CallToolResult | InputRequiredResult;

/**
 * Runs `tools/call`: access (TOOL_FORBIDDEN) → the caller's per-minute limits (TOOL_RATE_LIMITED) → arguments
 * (TOOL_INVALID_ARGUMENTS) → the worker's state (TOOL_WORKER_DOWN) → on 2026-07-28, the confirmation of a tool
 * that spends or signs (`input_required`) → the caller's daily quotas (TOOL_QUOTA_EXCEEDED) → the handler, acting
 * as the caller → the output schema. Every outcome becomes a tool result (errors with `isError`, the code and retry
 * advice in `_meta["forge/error"]`), and every call is audited, counted and metered. An unknown tool is a JSON-RPC
 * error.
 */
export class ToolCalls {
  constructor(private readonly deps: ToolCallsDependencies) {}

  async call(name: string, args: unknown, context: CallContext): Promise<CallAnswer> {
    const entry = this.deps.catalogue.find(name);
    if (!entry) {
      // Audited, not counted: metric labels only ever name real tools.
      this.audit(name, 'invalid', 0, args, context, { worker: null, code: 'TOOL_UNKNOWN', cost_units: 0 });
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const started = performance.now();
    let outcome: ToolOutcome = 'ok';
    let failure: ToolCallError | undefined;
    const charge = { units: 0 };
    let answer: CallAnswer;
    try {
      answer = await this.run(entry, args, context, charge);
      if ('resultType' in answer && answer.resultType === 'input_required') outcome = 'input_required';
    } catch (error) {
      failure = toToolError(error, context.logger, name);
      outcome = failure.outcome;
      answer = errorResult(failure);
    }
    const durationMs = performance.now() - started;
    this.account(entry, outcome, durationMs, args, context, failure, charge.units);
    return answer;
  }

  private async run(
    entry: CatalogueEntry,
    args: unknown,
    context: CallContext,
    charge: { units: number },
  ): Promise<CallAnswer> {
    const { tool, worker } = entry;
    const denial = accessDenial(tool.access, context.caller);
    if (denial) throw ToolCallError.forbidden(tool.name, denial);
    const key = callerKey(context.caller);
    const [overall, own] = await Promise.all([
      this.deps.callerLimiter.hit(key),
      this.deps.toolLimiter(tool.name).hit(key),
    ]);
    if (!overall.allowed)
      throw ToolCallError.rateLimited('calls per minute of this caller', overall.resetSeconds);
    if (!own.allowed) throw ToolCallError.rateLimited(`calls per minute of ${tool.name}`, own.resetSeconds);
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      throw ToolCallError.invalidArguments(
        tool.name,
        parsed.error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`),
      );
    }
    if (!tool.whileDown) {
      const state = await this.deps.health.state(worker);
      if (state.state === 'down') throw ToolCallError.workerDown(worker.name, state.reason ?? 'unavailable');
    }
    const { caller, logger, ip, requestId } = context;
    const call = { caller, logger, ip, requestId };
    if (tool.confirm && context.era === 'modern' && context.confirmation) {
      const asking = await confirmationNeeded(
        tool.name,
        parsed.data,
        await tool.confirm(parsed.data, call),
        context.confirmation,
      );
      if (asking) return asking;
    }
    charge.units = (await this.deps.quotas.charge(key, tool)).units;
    const raw = await tool.handler(parsed.data, call);
    const output = tool.output.parse(raw);
    return { content: [{ type: 'text', text: tool.summarise(output) }], structuredContent: output };
  }

  private account(
    entry: CatalogueEntry,
    outcome: ToolOutcome,
    durationMs: number,
    args: unknown,
    context: CallContext,
    failure: ToolCallError | undefined,
    costUnits: number,
  ): void {
    const tool = entry.tool.name;
    this.deps.usage.record({
      caller: callerKey(context.caller),
      callerLabel: this.deps.callerLabel(context.caller),
      tool,
      ok: outcome === 'ok' || outcome === 'input_required',
      costUnits,
    });
    mcpToolCalls.inc({ tool, worker: entry.worker.name, outcome });
    if (outcome !== 'ok' && outcome !== 'input_required') mcpToolErrors.inc({ tool, outcome });
    mcpToolLatency.observe({ tool }, durationMs / 1000);
    const at = new Date(this.deps.clock.now());
    this.deps.health.recordCall(
      entry.worker.name,
      outcome,
      durationMs,
      failure && { at: at.toISOString(), tool, code: failure.code, message: failure.message },
    );
    this.audit(tool, outcome, durationMs, args, context, {
      worker: entry.worker.name,
      cost_units: costUnits,
      ...(failure ? { code: failure.code } : {}),
    });
  }

  private audit(
    tool: string,
    outcome: ToolOutcome,
    durationMs: number,
    args: unknown,
    context: CallContext,
    details: { worker: string | null; code?: string; cost_units: number },
  ): void {
    this.deps.audit.record({
      at: new Date(this.deps.clock.now()),
      actor: callerKey(context.caller),
      kind: 'mcp.tool_call',
      target: tool,
      outcome,
      ip: context.ip,
      request_id: context.requestId,
      details: {
        worker: details.worker,
        arguments: args ?? {},
        duration_ms: Math.round(durationMs * 100) / 100,
        session_id: context.sessionId,
        era: context.era,
        cost_units: details.cost_units,
        ...(details.code ? { code: details.code } : {}),
      },
    });
  }
}

/** An error of a call as a tool error: the area's AppErrors keep their code and detail. */
function toToolError(error: unknown, logger: Logger, tool: string): ToolCallError {
  if (error instanceof ToolCallError) return error;
  if (error instanceof AppError) {
    const retry = Number(error.headers?.['Retry-After']) || undefined;
    const outcome: ToolOutcome =
      error.status === 429
        ? 'rate_limited'
        : error.status === 503
          ? 'unavailable'
          : error.status >= 500
            ? 'error'
            : 'refused';
    return new ToolCallError(error.code, error.detail ?? error.title, outcome, retry);
  }
  logger.error({ err: error, tool }, 'MCP tool failed');
  return new ToolCallError(
    'TOOL_INTERNAL_ERROR',
    'The tool failed unexpectedly; the failure is logged.',
    'error',
  );
}

function errorResult(error: ToolCallError): CallToolResult {
  return {
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    isError: true,
    _meta: {
      'forge/error': {
        code: error.code,
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      },
    },
  };
}
