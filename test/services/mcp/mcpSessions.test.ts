import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import { SERVICE_TOKEN, call, connect, signInPlayer, startMcpPlatform, textOf } from './mcpPlatform';

const IDLE_SECONDS = 60;

describe('MCP sessions: expiry, DELETE, concurrency, caps, limits; a down worker', () => {
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;

  beforeAll(async () => {
    // No game role and no shared presence: the world worker is down.
    server = await startMcpPlatform(
      {
        ROLES: 'api,worker',
        REDIS_URL: '',
        MCP_SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
        MCP_MAX_SESSIONS_PER_CALLER: '21',
        MCP_TOOL_CALLS_PER_MINUTE: '30',
      },
      clock,
    );
  });
  afterAll(() => server.stop());

  const openSessions = async () =>
    (
      await request(server.url)
        .get('/health/workers')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .expect(200)
    ).body.sessions.open as number;

  it('expires an idle session (404) and lets the client initialize a new one', async () => {
    const player = await signInPlayer(server.url);
    const first = await connect(server.url, player.token);
    expect((await call(first, 'world_areas')).isError).toBeUndefined();
    clock.advance(IDLE_SECONDS * 1000);
    const expired = await first.listTools().catch((error) => error);
    expect(expired).toBeInstanceOf(StreamableHTTPError);
    expect(expired.code).toBe(404);
    const again = await connect(server.url, player.token);
    expect((await call(again, 'world_areas')).isError).toBeUndefined();
    await again.close();
  });

  it('ends a session on DELETE; its id then answers 404 with a JSON-RPC error', async () => {
    const player = await signInPlayer(server.url);
    const client = await connect(server.url, player.token);
    const transport = client.transport as unknown as { sessionId: string; terminateSession(): Promise<void> };
    const id = transport.sessionId;
    await transport.terminateSession();
    const res = await request(server.url)
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Authorization', `Bearer ${player.token}`)
      .set('Mcp-Session-Id', id)
      .set('Mcp-Protocol-Version', '2025-11-25')
      .send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32001,
        message: 'Session not found: it expired or was closed; initialize again',
        data: { code: 'MCP_SESSION_NOT_FOUND' },
      },
    });
    await client.close();
  });

  it('binds a session to the caller that opened it (another credential gets 404)', async () => {
    const [ann, bob] = await Promise.all([signInPlayer(server.url), signInPlayer(server.url)]);
    const client = await connect(server.url, ann.token);
    const id = (client.transport as unknown as { sessionId: string }).sessionId;
    const res = await request(server.url)
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .set('Authorization', `Bearer ${bob.token}`)
      .set('Mcp-Session-Id', id)
      .set('Mcp-Protocol-Version', '2025-11-25')
      .send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    expect(res.status).toBe(404);
    await client.close();
  });

  it('serves 20 concurrent sessions of one caller and refuses past the per-caller cap (429)', async () => {
    const player = await signInPlayer(server.url);
    const clients = await Promise.all(Array.from({ length: 20 }, () => connect(server.url, player.token)));
    const results = await Promise.all(clients.map((client) => call(client, 'world_recipes')));
    expect(results.every((result) => result.isError === undefined)).toBe(true);
    const ids = new Set(
      clients.map((client) => (client.transport as unknown as { sessionId: string }).sessionId),
    );
    expect(ids.size).toBe(20);
    const twentyFirst = await connect(server.url, player.token);
    const refused = await connect(server.url, player.token).catch((error) => error);
    expect(refused).toBeInstanceOf(StreamableHTTPError);
    expect(refused.code).toBe(429);
    expect(refused.message).toContain('You have 21 open MCP sessions, the most allowed');
    await Promise.all([...clients, twentyFirst].map((client) => client.close()));
  });

  it('frees a session abandoned without DELETE once it has been idle', async () => {
    const player = await signInPlayer(server.url);
    clock.advance(IDLE_SECONDS * 1000);
    await connect(server.url, player.token); // abandoned: never closed, never deleted
    expect(await openSessions()).toBeGreaterThanOrEqual(1);
    clock.advance(IDLE_SECONDS * 1000);
    const fresh = await connect(server.url, player.token);
    expect(await openSessions()).toBe(1);
    const text = (await request(server.url).get('/metrics').expect(200)).text;
    expect(text).toMatch(/mcp_sessions_closed_total\{reason="idle"\} [1-9]/);
    await fresh.close();
  });

  it('answers a tool of a down worker with TOOL_WORKER_DOWN; its static reads still work', async () => {
    const player = await signInPlayer(server.url);
    const client = await connect(server.url, player.token);
    const look = await call(client, 'world_look');
    expect(look).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'TOOL_WORKER_DOWN', retryAfterSeconds: 30 } },
    });
    expect(textOf(look)).toBe(
      'TOOL_WORKER_DOWN: The world worker is down (no game process reachable (no game role here and no ' +
        'REDIS_URL)); its tools are unavailable. Try again later.',
    );
    expect((await call(client, 'world_areas')).isError).toBeUndefined();
    const health = await request(server.url).get('/health').expect(200);
    expect(health.body.workers).toContainEqual({ name: 'world', state: 'down' });
    await client.close();
  });

  it('limits calls per caller and tool with a tool error carrying retry advice', async () => {
    const player = await signInPlayer(server.url);
    const client = await connect(server.url, player.token);
    for (let index = 0; index < 30; index++) {
      expect((await call(client, 'world_quests')).isError).toBeUndefined();
    }
    const limited = await call(client, 'world_quests');
    expect(limited).toMatchObject({ isError: true, _meta: { 'forge/error': { code: 'TOOL_RATE_LIMITED' } } });
    expect(textOf(limited)).toMatch(
      /^TOOL_RATE_LIMITED: Rate limit reached \(calls per minute of world_quests\)\. Retry after \d+ s\.$/,
    );
    // Other tools keep their own budget.
    expect((await call(client, 'world_recipes')).isError).toBeUndefined();
    await client.close();
  });
});
