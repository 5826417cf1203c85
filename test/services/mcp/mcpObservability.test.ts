import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import {
  ADMIN_WALLET,
  SERVICE_TOKEN,
  call,
  connect,
  signInPlayer,
  startMcpPlatform,
  type Caller,
} from './mcpPlatform';

describe('MCP gateway: audit, metrics, resources, prompts and worker health', () => {
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;
  let player: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform({}, clock);
    player = await signInPlayer(server.url);
    // Traffic the figures below count: a success, an area's refusal, a search.
    const client = await connect(server.url, player.token);
    await call(client, 'world_look');
    await call(client, 'world_move', { direction: 'up' });
    await call(client, 'brain_search_fulltext', { query: 'lantern' });
    await client.close();
  });
  afterAll(() => server.stop());
  describe('audit, metrics, resources and prompts', () => {
    it('audits every call with secrets redacted; players see their own calls, admins everyone’s', async () => {
      const caller = await signInPlayer(server.url);
      const client = await connect(server.url, caller.token);
      await call(client, 'world_look', { password: 'hunter2' });
      await expect(client.callTool({ name: 'no_such_tool', arguments: { token: 't' } })).rejects.toThrow(
        /Unknown tool: no_such_tool$/,
      );
      await call(client, 'world_inventory');
      const mine = await call(client, 'gateway_my_calls', { limit: 5 });
      expect((mine.structuredContent as { calls: unknown[] }).calls).toEqual([
        expect.objectContaining({
          actor: `user:${caller.userId}`,
          tool: 'world_inventory',
          outcome: 'ok',
          code: null,
        }),
        expect.objectContaining({
          tool: 'no_such_tool',
          outcome: 'invalid',
          code: 'TOOL_UNKNOWN',
          arguments: { token: '[redacted]' },
        }),
        expect.objectContaining({
          tool: 'world_look',
          outcome: 'invalid',
          code: 'TOOL_INVALID_ARGUMENTS',
          arguments: { password: '[redacted]' },
        }),
      ]);
      await client.close();
      const admin = await connect(server.url, (await signInPlayer(server.url, ADMIN_WALLET)).token);
      const audit = await call(admin, 'gateway_audit_recent', { actor: `user:${caller.userId}`, limit: 10 });
      expect(
        (audit.structuredContent as { calls: Array<{ tool: string }> }).calls.map((c) => c.tool),
      ).toEqual(['gateway_my_calls', 'world_inventory', 'no_such_tool', 'world_look']);
      await admin.close();
    });

    it('counts calls, errors and latency by tool in /metrics', async () => {
      const text = (await request(server.url).get('/metrics').expect(200)).text;
      expect(text).toMatch(/mcp_tool_calls_total\{tool="world_look",worker="world",outcome="ok"\} [1-9]/);
      expect(text).toMatch(/mcp_tool_errors_total\{tool="world_move",outcome="refused"\} [1-9]/);
      expect(text).toMatch(/mcp_tool_latency_seconds_count\{tool="brain_search_fulltext"\} [1-9]/);
      expect(text).toMatch(/mcp_sessions_open [0-9]/);
    });

    it('offers the world’s areas as resources and a prompt to explore', async () => {
      const client = await connect(server.url, player.token);
      const { resources } = await client.listResources();
      expect(resources).toContainEqual(
        expect.objectContaining({ uri: 'forge://world/areas/village', mimeType: 'text/markdown' }),
      );
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'forge://world/areas/{area_id}' }),
      ]);
      const village = await client.readResource({ uri: 'forge://world/areas/village' });
      expect(village.contents[0]).toMatchObject({
        uri: 'forge://world/areas/village',
        mimeType: 'text/markdown',
      });
      const text = String((village.contents[0] as { text: string }).text);
      expect(text).toMatch(/^# .+\n\n/);
      expect(text).toContain('(`village:square`)');
      const missing = await client
        .readResource({ uri: 'forge://world/areas/atlantis' })
        .catch((error) => error);
      // Resource not found is -32602 with data {uri} (the 2026-07-28 revision's rule; the v2 SDK answers it on every
      // revision, and clients accept -32002 or -32602).
      expect(missing).toMatchObject({ code: -32602, data: { uri: 'forge://world/areas/atlantis' } });
      const workers = await client.readResource({ uri: 'forge://gateway/workers' });
      const workersText = String((workers.contents[0] as { text: string }).text);
      expect(workersText).toContain('- `world_look`: Look around');
      expect(workersText).not.toContain('identity_set_roles');
      const { prompts } = await client.listPrompts();
      expect(prompts.map((entry) => entry.name)).toEqual([
        'research_question',
        'summarise_memories',
        'explore_world',
      ]);
      const research = await client
        .getPrompt({ name: 'research_question', arguments: {} })
        .catch((error) => error);
      expect(research.message).toMatch(/Missing prompt arguments: question$/);
      const prompt = await client.getPrompt({
        name: 'explore_world',
        arguments: { goal: 'find the smithy' },
      });
      expect(prompt.messages[0].content).toMatchObject({
        type: 'text',
        text: expect.stringContaining('Goal: find the smithy.'),
      });
      await client.close();
    });
  });

  describe('health', () => {
    it('GET /health shows each worker’s state publicly, the signer down while unconfigured', async () => {
      const res = await request(server.url).get('/health').expect(200);
      expect(res.body).toEqual({
        status: 'degraded',
        workers: [
          { name: 'identity', state: 'up' },
          { name: 'brain', state: 'up' },
          { name: 'memory', state: 'up' },
          { name: 'decisions', state: 'up' },
          { name: 'graph', state: 'up' },
          { name: 'security', state: 'up' },
          { name: 'world', state: 'up' },
          { name: 'social', state: 'up' },
          { name: 'economy', state: 'up' },
          { name: 'marketplace', state: 'up' },
          { name: 'quests', state: 'up' },
          { name: 'influencer', state: 'up' },
          { name: 'admin', state: 'up' },
          { name: 'signer', state: 'down' },
          { name: 'gateway', state: 'up' },
        ],
      });
    });

    it('GET /health/workers gives operators reasons and figures; players get 403, nobody 401', async () => {
      await request(server.url).get('/health/workers').expect(401);
      const refused = await request(server.url)
        .get('/health/workers')
        .set('Authorization', `Bearer ${player.token}`)
        .expect(403);
      expect(refused.body).toMatchObject({
        code: 'ACCESS_REQUIRED',
        detail: 'Not allowed: it needs the operator role',
      });
      const res = await request(server.url)
        .get('/health/workers')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .expect(200);
      expect(res.body).toMatchObject({
        status: 'degraded',
        tools: 98,
        sessions: { max: 1000, idle_timeout_seconds: 1800 },
      });
      const byName = Object.fromEntries(
        res.body.workers.map((worker: { name: string }) => [worker.name, worker]),
      );
      expect(byName.signer).toMatchObject({
        state: 'down',
        reason: 'signature issuing is not configured (SIGNER_CHAIN_ID unset)',
        tools: 4,
      });
      expect(byName.world).toMatchObject({
        state: 'up',
        tools: 25,
        last_error: { tool: 'world_look', code: 'TOOL_INVALID_ARGUMENTS' },
      });
      expect(byName.economy).toMatchObject({ state: 'up', tools: 3 });
      expect(byName.marketplace).toMatchObject({ state: 'up', tools: 6 });
      expect(byName.world.calls).toBeGreaterThan(3);
      expect(byName.world.latency_ms.p50).toEqual(expect.any(Number));
    });
  });
});
