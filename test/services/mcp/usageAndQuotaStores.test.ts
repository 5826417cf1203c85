import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { ManualClock } from '../../../platform/clock';
import { CallerQuotas } from '../../../services/mcp/callerQuotas';
import { ToolCallError } from '../../../services/mcp/errors';
import { ACCESS, READ_ONLY, defineTool, type AnyTool } from '../../../services/mcp/toolDefinition';
import { UsageMeter } from '../../../services/mcp/usageMeter';

/** A tool of the given cost and daily calls, for the quota tests. */
function buildTool(overrides: { name: string; cost?: number; callsPerDay?: number }): AnyTool {
  return defineTool({
    input: z.strictObject({}),
    output: z.object({}),
    title: overrides.name,
    description: 'test',
    annotations: READ_ONLY,
    access: ACCESS.anyone,
    handler: () => Promise.resolve({}),
    summarise: () => '',
    ...overrides,
  });
}

const backends: Array<[string, () => Redis | undefined]> = [
  ['process memory', () => undefined],
  ['Redis', () => new Redis('redis://127.0.0.1:6379')],
];

/** The same suite over both stores of the quotas and the usage counters (SPEC: embedded and real backends). */
describe.each(backends)('MCP quotas and usage counters in %s', (_name, connect) => {
  let redis: Redis | undefined;
  let prefix: string;

  beforeEach(() => {
    redis = connect();
    prefix = `test:mcp-stores:${randomUUID()}:`;
  });
  afterEach(() => redis?.disconnect());

  it('charges cost units and calls per tool, refuses with the window’s rest, and gives a refused charge back', async () => {
    const cheap = buildTool({ name: 'cheap_read' });
    const costly = buildTool({ name: 'costly_read', cost: 4 });
    const limited = buildTool({ name: 'limited_read', callsPerDay: 1 });
    const quotas = new CallerQuotas({
      redis,
      keyPrefix: prefix,
      unitsPerWindow: 6,
      toolCallsPerWindow: 100,
      tools: [cheap, costly, limited],
    });
    expect(await quotas.charge('user:a', costly)).toEqual({ units: 4, unitsRemaining: 2 });
    expect(await quotas.charge('user:a', limited)).toEqual({ units: 1, unitsRemaining: 1 });
    const refused = await quotas.charge('user:a', limited).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolCallError);
    expect(refused).toMatchObject({ code: 'TOOL_QUOTA_EXCEEDED', outcome: 'quota_exceeded' });
    expect((refused as ToolCallError).retryAfterSeconds).toBeGreaterThan(86_000);
    // 5 of 6 units spent: a 4-unit call does not fit and is given back, so a 1-unit call still does.
    await expect(quotas.charge('user:a', costly)).rejects.toMatchObject({
      message: expect.stringMatching(/^Quota spent \(6 cost units per day\)/),
    });
    expect(await quotas.charge('user:a', cheap)).toEqual({ units: 1, unitsRemaining: 0 });
    expect(await quotas.charge('user:b', costly)).toEqual({ units: 4, unitsRemaining: 2 });
  });

  it('counts calls, errors and cost per day, caller and tool, and reads a range back filtered', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 23, 59));
    const usage = new UsageMeter({ redis, clock, retentionDays: 1, keyPrefix: `${prefix}usage:` });
    const call = { callerLabel: 'player', costUnits: 2, ok: true };
    usage.record({ ...call, caller: 'user:a', tool: 'brain_search' });
    usage.record({ ...call, caller: 'user:a', tool: 'brain_search', ok: false, costUnits: 0 });
    clock.advance(2 * 60_000);
    usage.record({ ...call, caller: 'user:b', tool: 'brain_search' });
    expect(await usage.read({ from: '2026-11-27', to: '2026-11-28' })).toEqual([
      { day: '2026-11-27', caller: 'user:a', tool: 'brain_search', calls: 2, errors: 1, cost_units: 2 },
      { day: '2026-11-28', caller: 'user:b', tool: 'brain_search', calls: 1, errors: 0, cost_units: 2 },
    ]);
    expect(await usage.read({ from: '2026-11-28', to: '2026-11-28', caller: 'user:a' })).toEqual([]);
    if (redis) expect(await redis.ttl(`${prefix}usage:2026-11-27`)).toBeGreaterThan(86_000);
    // Written behind the calls: another meter on the same store sees them once this one has written.
    usage.record({ ...call, caller: 'user:c', tool: 'brain_ask' });
    await usage.close();
    const other = new UsageMeter({ redis, clock, retentionDays: 1, keyPrefix: `${prefix}usage:` });
    const seen = await other.read({ from: '2026-11-28', to: '2026-11-28', caller: 'user:c' });
    await other.close();
    expect(seen).toEqual(redis ? [expect.objectContaining({ caller: 'user:c', calls: 1 })] : []);
  });
});
