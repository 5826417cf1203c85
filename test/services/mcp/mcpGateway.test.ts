import { ManualClock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import { ADMIN_WALLET, SERVICE_TOKEN, call, connect, signInGuest, signInPlayer, startMcpPlatform, textOf, type Caller } from './mcpPlatform';

describe('MCP gateway: tools by caller, calls end to end', () => {
  let server: TestPlatform;
  const clock = new ManualClock(Date.now());
  let player: Caller;

  beforeAll(async () => {
    server = await startMcpPlatform({}, clock);
    player = await signInPlayer(server.url);
  });
  afterAll(() => server.stop());

  it('lists different tools to a guest, a player, an admin and the service token', async () => {
    const guest = await signInGuest(server, clock);
    const admin = await signInPlayer(server.url, ADMIN_WALLET);
    const names = async (token: string) => {
      const client = await connect(server.url, token);
      const { tools } = await client.listTools();
      await client.close();
      return tools.map((tool) => tool.name);
    };
    const [asGuest, asPlayer, asAdmin, asService] = await Promise.all([
      names(guest.token),
      names(player.token),
      names(admin.token),
      names(SERVICE_TOKEN),
    ]);
    console.log(asGuest.length, asPlayer.length, asAdmin.length, asService.length);
    expect(asGuest).toContain('world_look');
    expect(asGuest).not.toContain('brain_ingest');
    expect(asPlayer).toContain('brain_ingest');
    expect(asAdmin).toContain('identity_set_roles');
    expect(asService).not.toContain('world_look');
  });

  it('calls brain search and world look', async () => {
    const client = await connect(server.url, player.token);
    const look = await call(client, 'world_look');
    console.log(textOf(look), look.structuredContent);
    const search = await call(client, 'brain_search_hybrid', { query: 'forge' });
    console.log(textOf(search));
    await client.close();
  });
});
