import type { Redis } from 'ioredis';
import { createLimiter, type Limiter } from '../../platform/http/rateLimit';
import { ToolCallError } from './errors';
import type { AnyTool } from './toolDefinition';

/** Quota settings: cost units per caller per window over all tools, and calls per caller per tool. */
export interface CallerQuotaOptions {
  /** Shared store: with it every process and every reconnect counts against the same quota. */
  redis?: Redis;
  /** Prefix of the Redis keys (MCP_REDIS_KEY_PREFIX + `quota:`). */
  keyPrefix: string;
  /** MCP_QUOTA_UNITS_PER_DAY: cost units a caller may spend per window over all tools. */
  unitsPerWindow: number;
  /** MCP_QUOTA_TOOL_CALLS_PER_DAY: calls of one tool per caller per window (a tool's `callsPerDay` overrides it). */
  toolCallsPerWindow: number;
  /** Default 86,400 (a day, from the caller's first call of the window). */
  windowSeconds?: number;
  tools: readonly AnyTool[];
}

/** What a charge left: units remaining in the caller's window. */
export interface QuotaCharge {
  units: number;
  unitsRemaining: number;
}

/**
 * Durable quotas per identity (`user:<id>` or `service`), never per session or connection: a caller's cost units
 * over all tools and its calls of each tool, per window. Counted in Redis when REDIS_URL is set (so a new session,
 * a 2026-07-28 request without any session, another api process or a restart of this one all see the same count),
 * in process memory otherwise. A refusal is TOOL_QUOTA_EXCEEDED with the seconds until the window resets.
 */
export class CallerQuotas {
  private readonly units: Limiter;
  private readonly perTool = new Map<string, Limiter>();

  constructor(options: CallerQuotaOptions) {
    const durationSeconds = options.windowSeconds ?? 86_400;
    this.units = createLimiter({
      redis: options.redis,
      keyPrefix: `${options.keyPrefix}units:`,
      points: options.unitsPerWindow,
      durationSeconds,
    });
    for (const tool of options.tools) {
      this.perTool.set(
        tool.name,
        createLimiter({
          redis: options.redis,
          keyPrefix: `${options.keyPrefix}tool:${tool.name}:`,
          points: tool.callsPerDay ?? options.toolCallsPerWindow,
          durationSeconds,
        }),
      );
    }
  }

  /**
   * Charges one call of `tool` (its cost in units) to `caller`; throws TOOL_QUOTA_EXCEEDED when either is spent. A
   * refused charge is given back, so a costly call that does not fit leaves the rest for cheaper ones.
   */
  async charge(caller: string, tool: AnyTool): Promise<QuotaCharge> {
    const units = tool.cost ?? 1;
    const perTool = this.perTool.get(tool.name) as Limiter;
    // Both counts at once (one round trip's wait with Redis); a refusal gives both back.
    const [own, spent] = await Promise.all([perTool.hit(caller), this.units.hit(caller, units)]);
    if (!own.allowed || !spent.allowed) {
      await Promise.all([perTool.refund(caller, 1), this.units.refund(caller, units)]);
      throw own.allowed
        ? ToolCallError.quotaExceeded(`${spent.limit} cost units per day`, spent.resetSeconds)
        : ToolCallError.quotaExceeded(`${own.limit} calls of ${tool.name} per day`, own.resetSeconds);
    }
    return { units, unitsRemaining: spent.remaining };
  }
}
