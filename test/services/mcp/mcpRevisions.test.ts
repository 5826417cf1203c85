import request from 'supertest';
import { ManualClock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import { callV2, connectV2, type Negotiation } from './mcpClientsV2';
import {
  ADMIN_WALLET,
  SERVICE_TOKEN,
  call,
  connect,
  signInPlayer,
  startMcpPlatform,
  type Caller,
} from './mcpPlatform';

const ACCEPT = 'application/json, text/event-stream';
const LANTERNS =
  '# Lanterns\n\nThe lamplighter trims quillwick lanterns at dusk.\n\n' +
  '`Colyseus` rooms keep their presence in `Redis`. `Colyseus` reaches `MongoDB` through `Mongoose`.\n\n' +
  '`Redis` also carries the rate limits, and `Colyseus` publishes room events through `Redis`.';

/** A 2026-07-28 request body: the `_meta` envelope every request of that revision carries. */
const modern = (method: string, params: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/**
 * The gateway serves the 2026-07-28 revision (no sessions, server/discover) beside 2025-11-25 (initialize and
 * sessions): v2 clients pinned, in auto mode and on the 2025 handshake, and the v1 client, each list tools and search
 * the brain as a player; the per-caller checks sit in front of both.
 */
describe('MCP gateway: protocol revisions 2026-07-28 and 2025-11-25', () => {
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;
  let player: Caller;
  let admin: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform({}, clock);
    [player, admin] = await Promise.all([signInPlayer(server.url), signInPlayer(server.url, ADMIN_WALLET)]);
    const ingest = await connect(server.url, admin.token);
    const ingested = await call(ingest, 'brain_ingest', {
      documents: [{ source: 'docs/lanterns.md', index: 'docs', text: LANTERNS }],
    });
    expect(ingested.structuredContent).toMatchObject({ totals: { created: 1 } });
    await ingest.close();
  });
  afterAll(() => server.stop());

  it.each<[Negotiation, string]>([
    ['2026-07-28', '2026-07-28'],
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ])(
    'a v2 client (%s) negotiates %s, lists tools and searches the brain as a player',
    async (mode, version) => {
      const client = await connectV2(server.url, player.token, mode);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(74);
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['brain_search', 'world_look']));
      const found = await callV2(client, 'brain_search', { query: 'quillwick lanterns' });
      expect(found.isError).toBeUndefined();
      expect(found.structuredContent).toMatchObject({
        route: { class: 'SIMPLE' },
        hits: [expect.objectContaining({ source: 'docs/lanterns.md' })],
      });
      const me = await callV2(client, 'identity_me');
      expect(me.structuredContent).toMatchObject({ id: player.userId });
      await client.close();
    },
  );

  it('the v1 client (@modelcontextprotocol/sdk) still initializes a 2025-11-25 session and searches', async () => {
    const client = await connect(server.url, player.token);
    const found = await call(client, 'brain_search', { query: 'quillwick lanterns' });
    expect(found.structuredContent).toMatchObject({
      hits: [expect.objectContaining({ source: 'docs/lanterns.md' })],
    });
    await client.close();
  });

  it('answers server/discover with 2026-07-28, without a session, and caches lists privately', async () => {
    const discover = await request(server.url)
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', `Bearer ${player.token}`)
      .set('Mcp-Protocol-Version', '2026-07-28')
      .set('Mcp-Method', 'server/discover')
      .send(modern('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.headers['mcp-session-id']).toBeUndefined();
    expect(discover.body.result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, resources: {}, prompts: {} },
      resultType: 'complete',
    });
    const listed = await request(server.url)
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', `Bearer ${player.token}`)
      .set('Mcp-Protocol-Version', '2026-07-28')
      .set('Mcp-Method', 'tools/list')
      .send(modern('tools/list'));
    expect(listed.body.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'private',
    });
  });

  it('acknowledges subscriptions/listen over an event stream with no notifications, and ends it', async () => {
    const listen = await request(server.url)
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Authorization', `Bearer ${player.token}`)
      .set('Mcp-Protocol-Version', '2026-07-28')
      .set('Mcp-Method', 'subscriptions/listen')
      .send(modern('subscriptions/listen', { notifications: { toolsListChanged: true } }))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });
    expect(listen.status).toBe(200);
    expect(listen.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = String(listen.body)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { method?: string; params?: object; result?: object });
    expect(events).toEqual([
      expect.objectContaining({
        method: 'notifications/subscriptions/acknowledged',
        params: expect.objectContaining({ notifications: {} }),
      }),
      expect.objectContaining({ id: 1, result: expect.objectContaining({ resultType: 'complete' }) }),
    ]);
  });

  it('keeps the per-caller checks in front of 2026-07-28 requests: 401 challenge, Origin, catalogue view', async () => {
    const anonymous = await request(server.url)
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Mcp-Protocol-Version', '2026-07-28')
      .set('Mcp-Method', 'tools/list')
      .send(modern('tools/list'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer resource_metadata=".+\/mcp"$/);
    expect(anonymous.body.error).toMatchObject({ code: -32001, data: { code: 'MCP_UNAUTHENTICATED' } });
    const foreign = await request(server.url)
      .post('/mcp')
      .set('Accept', ACCEPT)
      .set('Origin', 'https://evil.example')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send(modern('tools/list'));
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.data.code).toBe('MCP_ORIGIN_FORBIDDEN');
    const badView = await request(server.url)
      .post('/mcp?groups=brain,casino')
      .set('Accept', ACCEPT)
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send(modern('tools/list'));
    expect(badView.status).toBe(400);
    expect(badView.body.error).toMatchObject({
      message: 'Unknown tool groups: casino',
      data: { status: 400, code: 'MCP_CATALOGUE_INVALID', errors: [{ path: 'query.groups' }] },
    });
  });

  it('shows an admin the route-query, working-context, graph and security tools, and they answer', async () => {
    const client = await connectV2(server.url, admin.token, '2026-07-28');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'brain_route_query',
        'memory_working_context',
        'graph_neighbours',
        'graph_communities',
        'security_memory_audit',
        'security_scan',
        'security_export',
      ]),
    );
    const route = await callV2(client, 'brain_route_query', { query: 'quillwick' });
    expect(route.structuredContent).toMatchObject({
      query: 'quillwick',
      class: 'SIMPLE',
      strategies: ['fulltext'],
    });
    await callV2(client, 'memory_remember', {
      content: 'We agreed to meet at the lantern.',
      tier: 'working',
      session_id: 's1',
    });
    const working = await callV2(client, 'memory_working_context', { session_id: 's1' });
    expect(working.structuredContent).toMatchObject({
      session_id: 's1',
      memories: [expect.objectContaining({ content: 'We agreed to meet at the lantern.', tier: 'working' })],
    });
    // The graph is built in the background after the ingest: ask until it knows Colyseus (bounded).
    let neighbours = await callV2(client, 'graph_neighbours', { name: 'colyseus' });
    for (let attempt = 0; neighbours.isError && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      neighbours = await callV2(client, 'graph_neighbours', { name: 'colyseus' });
    }
    expect(neighbours.structuredContent).toMatchObject({
      entity: { name: 'Colyseus' },
      neighbours: expect.arrayContaining([expect.objectContaining({ name: 'Redis' })]),
    });
    const communities = await callV2(client, 'graph_communities', {});
    expect((communities.structuredContent as { total: number }).total).toBeGreaterThan(0);
    const audit = await callV2(client, 'security_memory_audit', { subject: `user:${admin.userId}` });
    expect(audit.isError).toBeUndefined();
    const missing = await callV2(client, 'graph_neighbours', { name: 'quasar lattice' });
    expect(missing).toMatchObject({
      isError: true,
      _meta: { 'forge/error': { code: 'GRAPH_ENTITY_NOT_FOUND' } },
    });
    await client.close();
  });

  it('refuses the new operator tools to a player, saying why', async () => {
    const client = await connectV2(server.url, player.token, '2026-07-28');
    const refused = await callV2(client, 'security_scan', {});
    expect(refused).toMatchObject({ isError: true, _meta: { 'forge/error': { code: 'TOOL_FORBIDDEN' } } });
    await client.close();
  });
});
