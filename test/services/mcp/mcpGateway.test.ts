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
import {
  ADMIN_ONLY,
  BRAIN_READS,
  DECISION_WRITES,
  MEMORY,
  MOVES_COINS,
  SECURITY_READS,
  SIGNATURES,
  SOCIAL_READS,
} from './toolGroups';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ACCEPT = 'application/json, text/event-stream';

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
      expect(asGuest).toHaveLength(57);
      expect(asPlayer).toHaveLength(74);
      expect(asAdmin).toHaveLength(91);
      expect(asService).toHaveLength(40);
      // Lists come sorted by name, so a list is the same on every request (2026-07-28 clients cache it).
      expect(asAdmin).toEqual([...asAdmin].sort());
      // A guest (tier 0) plays, reads its wallet and the market, but moves no coins or items out (tier 1), keeps no
      // memories and reads no decisions or graph (tier 1), does not ingest (operators) and runs no operator or admin
      // tools.
      expect(asAdmin.filter((name) => !asGuest.includes(name)).sort()).toEqual(
        [
          ...MOVES_COINS,
          ...SIGNATURES,
          ...MEMORY,
          ...BRAIN_READS,
          ...DECISION_WRITES,
          'brain_ingest',
          'gateway_health',
          ...ADMIN_ONLY,
          ...SECURITY_READS,
        ].sort(),
      );
      expect(asGuest).toEqual(
        expect.arrayContaining([
          'economy_wallet',
          'economy_ledger',
          'marketplace_cancel',
          'quests_recommendations',
          'social_friends',
          'social_mark',
        ]),
      );
      // A wallet player (tier 2) trades and keeps memories, but is no operator: the shared indexes and the decision
      // log are not its to write either.
      expect(asPlayer.filter((name) => !asGuest.includes(name)).sort()).toEqual(
        [...MOVES_COINS, ...SIGNATURES, ...MEMORY, ...BRAIN_READS].sort(),
      );
      expect(asAdmin.filter((name) => !asPlayer.includes(name)).sort()).toEqual(
        ['brain_ingest', 'gateway_health', ...DECISION_WRITES, ...ADMIN_ONLY, ...SECURITY_READS].sort(),
      );
      // Influencer tools need the creator grant, which none of these callers holds (an admin included).
      expect(asAdmin.filter((name) => name.startsWith('influencer_'))).toEqual([]);
      // The service token is no user: no world actions, no identity, wallet, trading, memory, quest or social
      // writes; it reads, ingests, records decisions, searches the marketplace and the social graph, sees health.
      expect(asService.sort()).toEqual(
        [
          'brain_route_query',
          'brain_search',
          'brain_ask',
          'brain_search_fulltext',
          'brain_search_semantic',
          'brain_search_hybrid',
          'brain_stats',
          'brain_cache_stats',
          'brain_ingest',
          ...BRAIN_READS,
          ...DECISION_WRITES,
          'world_spawn_status',
          'world_areas',
          'world_recipes',
          'world_quests',
          ...SOCIAL_READS,
          'marketplace_search',
          'marketplace_listing',
          'marketplace_similar',
          'signer_status',
          ...SIGNATURES,
          'gateway_health',
          'gateway_access',
          'gateway_find_tools',
          'gateway_my_calls',
          ...SECURITY_READS,
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

    it('ingests (as an admin) and finds a document through the brain tools', async () => {
      const admin = await signInPlayer(server.url, ADMIN_WALLET);
      const client = await connect(server.url, admin.token);
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
      const routed = await call(client, 'brain_search', { query: 'quillwick lanterns' });
      expect(routed.structuredContent).toMatchObject({
        route: { class: 'SIMPLE' },
        hits: [expect.objectContaining({ source: 'docs/mcp-test.md' })],
      });
      const answered = await call(client, 'brain_ask', {
        question: 'When does the lamplighter trim the lanterns?',
      });
      const answer = answered.structuredContent as { answer: string; grounded: boolean; citations: object[] };
      expect(answer).toMatchObject({
        grounded: true,
        citations: [expect.objectContaining({ n: 1, source: 'docs/mcp-test.md' })],
      });
      expect(answer.answer).toMatch(/dusk.*\[1\]/);
      expect(textOf(answered)).toContain('[1] docs/mcp-test.md:');
      await client.close();
    });

    it('screens an MCP ingest like the route: a document holding a secret is refused on its own', async () => {
      const admin = await signInPlayer(server.url, ADMIN_WALLET);
      const client = await connect(server.url, admin.token);
      const ingested = await call(client, 'brain_ingest', {
        documents: [
          { source: 'docs/mcp-digest.md', index: 'docs', text: `# Image\n\nnode@sha256:${'ab'.repeat(32)}` },
          { source: 'docs/mcp-key.md', index: 'docs', text: `# Env\n\nPRIVATE_KEY=0x${'cd'.repeat(32)}` },
        ],
      });
      expect(ingested.structuredContent).toMatchObject({
        totals: { created: 1 },
        refused: [
          {
            position: 1,
            source: 'docs/mcp-key.md',
            findings: [{ kind: 'private_key', rule: 'assigned_hex_key', line: 3 }],
          },
        ],
      });
      expect(JSON.stringify(ingested)).not.toContain('cdcdcdcd');
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
            text: 'TOOL_FORBIDDEN: You may not call brain_ingest: it needs the operator role.',
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
});
