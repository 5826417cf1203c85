import type { Redis } from 'ioredis';
import type { Clock } from '../../platform/clock';
import { mcpUsageCalls, mcpUsageCost } from './metrics';

/** One metered call: who, which tool, whether it acted, and the cost units it charged. */
export interface MeteredCall {
  /** `user:<id>` or `service`. */
  caller: string;
  /** The `/metrics` label for the caller: its key with MCP_METRICS_PER_CALLER, its class otherwise. */
  callerLabel: string;
  tool: string;
  ok: boolean;
  costUnits: number;
}

/** A row of usage: one caller's calls of one tool on one UTC day. */
export interface UsageRow {
  day: string;
  caller: string;
  tool: string;
  calls: number;
  errors: number;
  cost_units: number;
}

/** What to read: UTC days from..to (inclusive), optionally one caller or one tool. */
export interface UsageQuery {
  from: string;
  to: string;
  caller?: string;
  tool?: string;
}

type Field = 'calls' | 'errors' | 'cost_units';

/** Options of UsageMeter: the store, the clock, how long days are kept, and how often Redis is written (1 s). */
export interface UsageMeterOptions {
  redis?: Redis;
  clock: Clock;
  retentionDays: number;
  keyPrefix?: string;
  flushMs?: number;
  /** Told of a failed background write (the increments are kept for the next one). */
  onError?: (error: unknown) => void;
}

/**
 * Calls and their cost per caller and tool over time, for billing and throttling: every call is counted in
 * `/metrics` (`mcp_usage_calls_total`, `mcp_usage_cost_units_total`) and in per-day counters read by
 * `GET /admin/mcp/usage`. The counters live in Redis when REDIS_URL is set (one hash per UTC day, shared by every
 * process, kept `retentionDays`), added up in memory and written behind the calls once per `flushMs` (a crash loses
 * at most that much; a read or `close()` writes first); in process memory otherwise (lost on restart).
 */
export class UsageMeter {
  /** The counters themselves without Redis; the increments not yet written with it. */
  private readonly memory = new Map<string, Map<string, number>>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer?: NodeJS.Timeout;

  constructor(private readonly options: UsageMeterOptions) {
    if (options.redis) {
      this.timer = setInterval(
        () => this.flush().catch((error: unknown) => options.onError?.(error)),
        options.flushMs ?? 1000,
      );
      this.timer.unref();
    }
  }

  /** Counts a call: metrics at once, the day's counters in memory (written to Redis behind the call). */
  record(call: MeteredCall): void {
    mcpUsageCalls.inc({ caller: call.callerLabel, tool: call.tool, charged: String(call.costUnits > 0) });
    if (call.costUnits > 0) mcpUsageCost.inc({ caller: call.callerLabel, tool: call.tool }, call.costUnits);
    const day = new Date(this.options.clock.now()).toISOString().slice(0, 10);
    const increments: Array<[Field, number]> = [
      ['calls', 1],
      ['errors', call.ok ? 0 : 1],
      ['cost_units', call.costUnits],
    ];
    const field = (name: Field) => `${call.caller}|${call.tool}|${name}`;
    const counters = this.memory.get(day) ?? new Map<string, number>();
    this.memory.set(day, counters);
    for (const [name, by] of increments) {
      if (by > 0) counters.set(field(name), (counters.get(field(name)) ?? 0) + by);
    }
  }

  /** Writes the increments added up since the last write to Redis (one pipeline); a failure keeps them for the next. */
  flush(): Promise<void> {
    const redis = this.options.redis;
    if (!redis) return Promise.resolve();
    // A failed write must not stop the next ones: chain on the settled previous write.
    this.flushing = this.flushing
      .catch(() => undefined)
      .then(async () => {
        if (this.memory.size === 0) return;
        const pending = new Map(this.memory);
        this.memory.clear();
        const pipeline = redis.pipeline();
        for (const [day, counters] of pending) {
          for (const [field, by] of counters) pipeline.hincrby(this.keyOf(day), field, by);
          pipeline.expire(this.keyOf(day), this.options.retentionDays * 86_400);
        }
        try {
          await pipeline.exec();
        } catch (error) {
          for (const [day, counters] of pending) {
            const kept = this.memory.get(day) ?? new Map<string, number>();
            for (const [field, by] of counters) kept.set(field, (kept.get(field) ?? 0) + by);
            this.memory.set(day, kept);
          }
          throw error;
        }
      });
    return this.flushing;
  }

  /** Stops the timer and writes what is left (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** The rows of the days asked for, by day, caller and tool (written first, so they include every call so far). */
  async read(query: UsageQuery): Promise<UsageRow[]> {
    await this.flush();
    const rows = new Map<string, UsageRow>();
    for (const day of daysBetween(query.from, query.to)) {
      const counters = this.options.redis
        ? Object.entries(await this.options.redis.hgetall(this.keyOf(day)))
        : [...(this.memory.get(day) ?? new Map<string, number>()).entries()];
      for (const [name, value] of counters) {
        const [caller, tool, field] = name.split('|') as [string, string, Field];
        if ((query.caller && caller !== query.caller) || (query.tool && tool !== query.tool)) continue;
        const id = `${day}|${caller}|${tool}`;
        const row = rows.get(id) ?? { day, caller, tool, calls: 0, errors: 0, cost_units: 0 };
        row[field] += Number(value);
        rows.set(id, row);
      }
    }
    return [...rows.values()].sort(
      (a, b) =>
        a.day.localeCompare(b.day) || a.caller.localeCompare(b.caller) || a.tool.localeCompare(b.tool),
    );
  }

  private keyOf(day: string): string {
    return `${this.options.keyPrefix ?? 'mcp:usage:'}${day}`;
  }
}

/** The UTC days from..to, inclusive (YYYY-MM-DD). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}
