import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { callV2, connectV2 } from './mcpClientsV2';
import { ADMIN_WALLET, call, connect, signInPlayer, startMcpPlatform, type Caller } from './mcpPlatform';

/**
 * Durable per-identity quotas and usage metering: a caller's daily quotas hold across sessions, new connections and
 * revisions (they are counted in Redis under the caller's identity, never the session), refusals say when they
 * renew, and every call is metered per caller and tool for /metrics and GET /admin/mcp/usage.
 */
describe('MCP gateway: durable quotas per identity and usage metering', () => {
  let server: TestPlatform;
  let player: Caller;
  let spender: Caller;
  let admin: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform({ MCP_QUOTA_TOOL_CALLS_PER_DAY: '3', MCP_QUOTA_UNITS_PER_DAY: '12' });
    [player, spender, admin] = await Promise.all([
      signInPlayer(server.url),
      signInPlayer(server.url),
      signInPlayer(server.url, ADMIN_WALLET),
    ]);
  });
  afterAll(() => server.stop());

  it('keeps a tool quota across sessions, a 2026-07-28 connection and a new session, with the renewal time', async () => {
    const first = await connect(server.url, player.token);
    expect((await call(first, 'identity_me')).isError).toBeUndefined();
    expect((await call(first, 'identity_me')).isError).toBeUndefined();
    await first.close();
    const modern = await connectV2(server.url, player.token, '2026-07-28');
    expect((await callV2(modern, 'identity_me')).isError).toBeUndefined();
    const spent = await callV2(modern, 'identity_me');
    await modern.close();
    expect(spent).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'TOOL_QUOTA_EXCEEDED', retryAfterSeconds: expect.any(Number) } },
    });
    const retry = (spent._meta?.['forge/error'] as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(retry).toBeGreaterThan(86_000);
    expect(retry).toBeLessThanOrEqual(86_400);
    const text = spent.content[0]?.type === 'text' ? spent.content[0].text : '';
    expect(text).toMatch(
      /^TOOL_QUOTA_EXCEEDED: Quota spent \(3 calls of identity_me per day\)\. It renews in \d+ s \(at \d{4}-.+Z\); new sessions do not reset it\.$/,
    );
    // A new 2025 session of the same caller: still spent. Another tool is not.
    const again = await connect(server.url, player.token);
    expect(await call(again, 'identity_me')).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'TOOL_QUOTA_EXCEEDED' } },
    });
    expect((await call(again, 'world_areas')).isError).toBeUndefined();
    await again.close();
    // Another caller has its own quota.
    const other = await connect(server.url, spender.token);
    expect((await call(other, 'identity_me')).isError).toBeUndefined();
    await other.close();
  });

  it('charges cost units over all tools, and refuses once they are spent', async () => {
    const client = await connectV2(server.url, spender.token, 'auto');
    // identity_me above cost 1; brain_ask costs 5, brain_search 2: 1 + 5 + 5 = 11 of 12.
    expect(
      (await callV2(client, 'brain_ask', { question: 'Who trims the lanterns?' })).isError,
    ).toBeUndefined();
    expect(
      (await callV2(client, 'brain_ask', { question: 'When are they trimmed?' })).isError,
    ).toBeUndefined();
    expect(await callV2(client, 'brain_search', { query: 'lanterns' })).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'TOOL_QUOTA_EXCEEDED' } },
    });
    expect((await callV2(client, 'world_areas')).isError).toBeUndefined();
    await client.close();
  });

  it('meters calls and cost per caller and tool: GET /admin/mcp/usage, /metrics and the audit log', async () => {
    const res = await request(server.url)
      .get('/admin/mcp/usage')
      .query({ caller: `user:${player.userId}` })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toMatchObject({ from: today, to: today });
    expect(res.body.rows).toEqual([
      {
        day: today,
        caller: `user:${player.userId}`,
        tool: 'identity_me',
        calls: 5,
        errors: 2,
        cost_units: 3,
      },
      {
        day: today,
        caller: `user:${player.userId}`,
        tool: 'world_areas',
        calls: 1,
        errors: 0,
        cost_units: 1,
      },
    ]);
    expect(res.body.callers).toEqual([
      { caller: `user:${player.userId}`, calls: 6, errors: 2, cost_units: 4 },
    ]);
    const all = await request(server.url)
      .get('/admin/mcp/usage')
      .query({ from: today, to: today, tool: 'brain_ask' })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(all.body.rows).toEqual([
      {
        day: today,
        caller: `user:${spender.userId}`,
        tool: 'brain_ask',
        calls: 2,
        errors: 0,
        cost_units: 10,
      },
    ]);
    const metrics = await request(server.url).get('/metrics').expect(200);
    expect(metrics.text).toContain(
      'mcp_usage_calls_total{caller="player",tool="identity_me",charged="true"} 4',
    );
    expect(metrics.text).toContain('mcp_usage_cost_units_total{caller="player",tool="brain_ask"} 10');
    // The audit log (written behind the calls in batches: ask until it has them, bounded) records each call's cost.
    const auditor = await connect(server.url, admin.token);
    const audited = async () =>
      (await call(auditor, 'gateway_audit_recent', { actor: `user:${spender.userId}`, tool: 'brain_ask' }))
        .structuredContent as { calls: Array<{ outcome: string; cost_units: number | null }> };
    let recent = await audited();
    for (let attempt = 0; recent.calls.length < 2 && attempt < 30; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recent = await audited();
    }
    await auditor.close();
    expect(recent.calls).toEqual([
      expect.objectContaining({ outcome: 'ok', cost_units: 5 }),
      expect.objectContaining({ outcome: 'ok', cost_units: 5 }),
    ]);
  });

  it('refuses the usage read to a player (403) and a bad query with a problem (400)', async () => {
    const forbidden = await request(server.url)
      .get('/admin/mcp/usage')
      .set('Authorization', `Bearer ${player.token}`)
      .expect(403);
    expect(forbidden.body).toMatchObject({ status: 403, code: 'ACCESS_REQUIRED' });
    const bad = await request(server.url)
      .get('/admin/mcp/usage')
      .query({ from: '2026-02-10', to: '2026-02-01', caller: 'me' })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'query.caller',
      'query.from',
    ]);
    const long = await request(server.url)
      .get('/admin/mcp/usage')
      .query({ from: '2026-01-01', to: '2026-12-31' })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(400);
    expect(long.body.detail).toBe('At most 93 days per read');
  });
});
