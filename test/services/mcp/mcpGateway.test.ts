import { McpError } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import {
  ADMIN_WALLET,
  SERVICE_TOKEN,
  call,
  connect,
  signInGuest,
  signInPlayer,
  startMcpPlatform,
  textOf,
  type Caller,
} from './mcpPlatform';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ACCEPT = 'application/json, text/event-stream';

/** Tools only some callers see. */
const ADMIN_ONLY = ['identity_user', 'identity_set_roles', 'gateway_audit_recent'];

describe('MCP gateway at /mcp: access, tools by caller, calls end to end', () => {
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;
  let player: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform({}, clock);
    player = await signInPlayer(server.url);
  });
  afterAll(() => server.stop());

  /** PUBLIC_BASE_URL (the test config derives one), which the gateway names in its metadata. */
  const base = () => String(server.config.PUBLIC_BASE_URL).replace(/\/$/, '');
  const names = async (token: string) => {
    const client = await connect(server.url, token);
    const { tools } = await client.listTools();
    await client.close();
    return tools.map((tool) => tool.name);
  };

  describe('HTTP: credential, origin, metadata', () => {
    it('answers 401 with the RFC 9728 challenge and a JSON-RPC error without a credential', async () => {
      const res = await request(server.url).post('/mcp').set('Accept', ACCEPT).send(INITIALIZE);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        `Bearer resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32001,
          message: 'Present a session token or the service token as a bearer credential',
          data: { status: 401, code: 'MCP_UNAUTHENTICATED' },
        },
      });
    });

    it('answers 401 invalid_token for a credential that is not valid', async () => {
      const res = await request(server.url)
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Authorization', 'Bearer not-a-session')
        .send(INITIALIZE);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
      expect(res.body.error.message).toBe('The credential is invalid, expired or revoked');
    });

    it('serves the protected-resource metadata naming how to get a token', async () => {
      const res = await request(server.url).get('/.well-known/oauth-protected-resource/mcp').expect(200);
      expect(res.body).toMatchObject({
        resource: `${base()}/mcp`,
        bearer_methods_supported: ['header'],
        resource_documentation: `${base()}/openapi.json`,
      });
      expect(res.body.token_sources.map((source: { method: string }) => source.method)).toEqual([
        'wallet',
        'email',
        'sso',
        'service',
      ]);
    });

    it('refuses a foreign Origin with 403 and accepts the server’s own', async () => {
      const foreign = await request(server.url)
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Origin', 'https://evil.example')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send(INITIALIZE);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toMatchObject({
        code: -32000,
        message: 'Origin https://evil.example may not call this gateway',
        data: { code: 'MCP_ORIGIN_FORBIDDEN' },
      });
      const own = await request(server.url)
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Origin', server.url)
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send(INITIALIZE);
      expect(own.status).toBe(200);
      expect(own.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(own.body.result.serverInfo).toMatchObject({ name: 'forge-platform' });
    });

    it('answers a request without a session id, other than initialize, with 400', async () => {
      const res = await request(server.url)
        .post('/mcp')
        .set('Accept', ACCEPT)
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(res.status).toBe(400);
      expect(res.body.error.data.code).toBe('MCP_SESSION_REQUIRED');
    });
  });

  describe('tools/list', () => {
    it('shows a guest, a player, an admin and the service token different sets', async () => {
      const guest = await signInGuest(server, clock);
      const admin = await signInPlayer(server.url, ADMIN_WALLET);
      const [asGuest, asPlayer, asAdmin, asService] = await Promise.all([
        names(guest.token),
        names(player.token),
        names(admin.token),
        names(SERVICE_TOKEN),
      ]);
      expect(asAdmin).toHaveLength(40);
      // A guest (tier 0) plays and reads, but neither ingests (tier 1) nor runs operator or admin tools.
      expect(asAdmin.filter((name) => !asGuest.includes(name)).sort()).toEqual(
        ['brain_ingest', 'gateway_health', ...ADMIN_ONLY].sort(),
      );
      // A wallet player (tier 2) also ingests.
      expect(asAdmin.filter((name) => !asPlayer.includes(name)).sort()).toEqual(
        ['gateway_health', ...ADMIN_ONLY].sort(),
      );
      // The service token is no user: no world actions, no identity tools; it reads, ingests and sees health.
      expect(asService.sort()).toEqual(
        [
          'brain_search_fulltext',
          'brain_search_semantic',
          'brain_search_hybrid',
          'brain_stats',
          'brain_cache_stats',
          'brain_ingest',
          'world_spawn_status',
          'world_areas',
          'world_recipes',
          'world_quests',
          'signer_status',
          'gateway_health',
          'gateway_access',
          'gateway_my_calls',
        ].sort(),
      );
    });

    it('describes each tool for a model: title, annotations, object input and output schemas', async () => {
      const client = await connect(server.url, player.token);
      const { tools } = await client.listTools();
      await client.close();
      const move = tools.find((tool) => tool.name === 'world_move');
      expect(move).toMatchObject({
        title: 'Walk through an exit',
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
        inputSchema: {
          type: 'object',
          required: ['direction'],
          properties: { direction: { enum: ['north', 'south', 'east', 'west', 'up', 'down', 'in', 'out'] } },
        },
        outputSchema: { type: 'object' },
      });
      for (const tool of tools) {
        expect(tool.description?.length).toBeGreaterThan(30);
        expect(tool.outputSchema?.type).toBe('object');
        expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      }
    });
  });

  describe('tools/call', () => {
    it('plays the world as the caller: look, move, and a refusal that changes nothing', async () => {
      const client = await connect(server.url, player.token);
      const look = await call(client, 'world_look');
      expect(look.isError).toBeUndefined();
      expect(look.structuredContent).toMatchObject({ user_id: player.userId, room: 'village:square' });
      expect(textOf(look)).toMatch(/^Village Square\n/);
      const moved = await call(client, 'world_move', { direction: 'east' });
      expect(moved.structuredContent).toMatchObject({
        room: 'village:market',
        player: { room: 'village:market' },
      });
      const refused = await call(client, 'world_move', { direction: 'up' });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'NO_EXIT: You cannot go up from here.' }],
        _meta: { 'forge/error': { code: 'NO_EXIT' } },
      });
      const typed = await call(client, 'world_command', { line: 'w' });
      expect(typed.structuredContent).toMatchObject({ room: 'village:square' });
      await client.close();
    });

    it('ingests and finds a document through the brain tools', async () => {
      const client = await connect(server.url, player.token);
      const ingested = await call(client, 'brain_ingest', {
        documents: [
          {
            source: 'docs/mcp-test.md',
            index: 'docs',
            text: '# Lanterns\n\nThe lamplighter trims quillwick lanterns at dusk.',
          },
        ],
      });
      expect(ingested.structuredContent).toMatchObject({ totals: { created: 1 } });
      const found = await call(client, 'brain_search_fulltext', { query: 'quillwick' });
      expect(found.structuredContent).toMatchObject({
        strategy: 'fulltext',
        hits: [expect.objectContaining({ source: 'docs/mcp-test.md', found_by: ['fulltext'] })],
      });
      expect(textOf(found)).toMatch(/^1 hits for "quillwick" \(fulltext\):\n1\. Lanterns/);
      await client.close();
    });

    it('answers who the caller is', async () => {
      const client = await connect(server.url, player.token);
      const me = await call(client, 'identity_me');
      expect(me.structuredContent).toMatchObject({
        id: player.userId,
        tier: 2,
        tier_name: 'Verified',
        roles: ['player'],
      });
      await client.close();
    });

    it('refuses a tool the caller may not call with a tool error saying why', async () => {
      const guest = await signInGuest(server, clock);
      const asGuest = await connect(server.url, guest.token);
      const ingest = await call(asGuest, 'brain_ingest', { documents: [] });
      expect(ingest).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text:
              'TOOL_FORBIDDEN: You may not call brain_ingest: it needs identity tier 1 (Registered) or above; ' +
              'you are at tier 0 (Anonymous).',
          },
        ],
      });
      await asGuest.close();
      const asService = await connect(server.url, SERVICE_TOKEN);
      const look = await call(asService, 'world_look');
      expect(textOf(look)).toBe(
        'TOOL_FORBIDDEN: You may not call world_look: it acts as a signed-in user, and the service token is not one.',
      );
      const roles = await call(asService, 'identity_set_roles', { user_id: player.userId, roles: ['admin'] });
      expect(textOf(roles)).toBe(
        'TOOL_FORBIDDEN: You may not call identity_set_roles: it acts as a signed-in user, and the service token is not one.',
      );
      const asPlayer = await connect(server.url, player.token);
      const promote = await call(asPlayer, 'identity_set_roles', {
        user_id: player.userId,
        roles: ['admin'],
      });
      expect(textOf(promote)).toBe(
        'TOOL_FORBIDDEN: You may not call identity_set_roles: it needs the admin role.',
      );
      await asPlayer.close();
      await asService.close();
    });

    it('reports bad arguments as a tool error naming the fields, and an unknown tool as a JSON-RPC error', async () => {
      const client = await connect(server.url, player.token);
      const bad = await call(client, 'world_move', { direction: 'sideways', speed: 3 });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^TOOL_INVALID_ARGUMENTS: Invalid arguments for world_move: /);
      expect(textOf(bad)).toContain('direction: Invalid option');
      expect(textOf(bad)).toContain('Unrecognized key: "speed"');
      const empty = await call(client, 'brain_search_hybrid', {});
      expect(textOf(empty)).toBe(
        'TOOL_INVALID_ARGUMENTS: Invalid arguments for brain_search_hybrid: query: Invalid input: expected string, received undefined. Fix them and call again.',
      );
      const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error) => error);
      expect(unknown).toBeInstanceOf(McpError);
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toMatch(/Unknown tool: no_such_tool$/);
      await client.close();
    });
  });

  describe('audit, metrics, resources and prompts', () => {
    it('audits every call with secrets redacted; players see their own calls, admins everyone’s', async () => {
      const caller = await signInPlayer(server.url);
      const client = await connect(server.url, caller.token);
      await call(client, 'world_look', { password: 'hunter2' });
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
      ).toEqual(['gateway_my_calls', 'world_inventory', 'world_look']);
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
      expect(missing).toMatchObject({ code: -32002 });
      const workers = await client.readResource({ uri: 'forge://gateway/workers' });
      const workersText = String((workers.contents[0] as { text: string }).text);
      expect(workersText).toContain('- `world_look`: Look around');
      expect(workersText).not.toContain('identity_set_roles');
      const { prompts } = await client.listPrompts();
      expect(prompts.map((entry) => entry.name)).toEqual(['research_question', 'explore_world']);
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
          { name: 'world', state: 'up' },
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
        tools: 40,
        sessions: { max: 1000, idle_timeout_seconds: 1800 },
      });
      const byName = Object.fromEntries(
        res.body.workers.map((worker: { name: string }) => [worker.name, worker]),
      );
      expect(byName.signer).toMatchObject({
        state: 'down',
        reason: 'signature issuing is not configured (SIGNER_CHAIN_ID unset)',
        tools: 1,
      });
      expect(byName.world).toMatchObject({
        state: 'up',
        tools: 25,
        last_error: { tool: 'world_look', code: 'TOOL_INVALID_ARGUMENTS' },
      });
      expect(byName.world.calls).toBeGreaterThan(3);
      expect(byName.world.latency_ms.p50).toEqual(expect.any(Number));
    });
  });
});
