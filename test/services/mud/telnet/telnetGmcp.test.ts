import { loadWorld } from '../../../../rooms/content/loader';
import { RoomAtlas } from '../../../../services/mud/roomAtlas';
import { EOR_CMD, GA, Option, WILL, DO } from '../../../../services/mud/telnet/telnetCodes';
import { freePort } from '../../../helpers/nginx';
import type { TestPlatform } from '../../../helpers/platform';
import request from 'supertest';
import { act, buildCharacter, signIn, startWorldPlatform } from '../worldPlatform';
import { TelnetTestClient } from './telnetClient';

/** GMCP and MSSP over the telnet port of the whole platform, each message as a client receives it. */
describe('telnet port: negotiation, GMCP and MSSP', () => {
  let server: TestPlatform;
  let port: number;
  let atlas: RoomAtlas;
  const open: TelnetTestClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    server = await startWorldPlatform({ TELNET_PORT: String(port), GUEST_SIGNIN_PER_HOUR: '1000' });
    atlas = new RoomAtlas(await loadWorld());
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  const connect = async (wants: Parameters<typeof TelnetTestClient.connect>[1] = {}) => {
    const client = await TelnetTestClient.connect(port, wants);
    open.push(client);
    await client.waitForText(/Name or email: $/);
    return client;
  };
  const num = (ref: string) => atlas.room(ref)!.num;

  it('offers GMCP, MSSP, MCCP2, EOR and CHARSET, asks for NAWS and TTYPE, and ends prompts with GA', async () => {
    const client = await connect();
    expect(client.received).toEqual(
      expect.arrayContaining([
        { verb: WILL, option: Option.GMCP },
        { verb: WILL, option: Option.MSSP },
        { verb: WILL, option: Option.MCCP2 },
        { verb: WILL, option: Option.EOR },
        { verb: WILL, option: Option.CHARSET },
        { verb: DO, option: Option.NAWS },
        { verb: DO, option: Option.TTYPE },
      ]),
    );
    expect(client.text).toMatch(/^Welcome to The Thornwick Marches\.\r\n/);
    await client.waitFor(() => client.prompts > 0, 'a prompt');
    expect(client.promptEnds).toEqual([GA]);
  });

  it('answers DO MSSP with the server status table', async () => {
    const client = await connect({ mssp: true });
    await client.waitFor(() => client.mssp.length > 0, 'MSSP');
    const table = client.mssp[0];
    expect(table).toMatchObject({
      NAME: 'The Thornwick Marches',
      CODEBASE: 'Forge Platform',
      CONTACT: 'admin@localhost',
      PORT: String(port),
      HOSTNAME: 'localhost',
      GENRE: 'Fantasy',
      GAMEPLAY: 'Adventure',
      LANGUAGE: 'English',
      AREAS: '6',
      ROOMS: '80',
      GMCP: '1',
      MCCP: '1',
      MSSP: '1',
      'UTF-8': '1',
      ANSI: '1',
    });
    expect(Number(table.PLAYERS)).toBeGreaterThanOrEqual(0);
    expect(Number(table.UPTIME)).toBeGreaterThan(1_700_000_000);
    expect(Math.abs(Number(table.UPTIME) - Date.now() / 1000)).toBeLessThan(600);
  });

  it('signs a guest in and sends Char.Name, Char.Vitals, Char.Status, Room.Info, items and quests, then EOR prompts', async () => {
    const client = await connect({ gmcp: true, eor: true });
    client.sendGmcp('Core.Hello', { client: 'jest', version: '1' });
    client.line('guest Telnet Ann');
    expect(await client.waitForGmcp('Char.Name')).toEqual({
      name: 'Telnet Ann',
      fullname: 'Telnet Ann',
      guest: true,
    });
    expect(await client.waitForGmcp('Char.Vitals')).toEqual({
      health: 30,
      maxhealth: 30,
      level: 1,
      xp: 0,
      coins: 10,
    });
    expect(await client.waitForGmcp('Char.Status')).toEqual({
      name: 'Telnet Ann',
      level: 1,
      status: 'idle',
      area: 'Thornwick Village',
      room: 'Village Square',
    });
    expect(await client.waitForGmcp('Room.Info')).toEqual({
      num: num('village:square'),
      name: 'Village Square',
      area: 'Thornwick Village',
      zone: 'village',
      exits: {
        north: num('village:chapel'),
        east: num('village:market'),
        south: num('village:inn'),
        west: num('village:smithy'),
      },
      coords: atlas.room('village:square')!.coords,
    });
    expect(await client.waitForGmcp('Char.Items.List')).toEqual({ location: 'inv', items: [] });
    expect(await client.waitForGmcp('Char.Quests.List')).toEqual({ quests: [] });
    await client.waitForText(/Village Square/);
    await client.waitFor(() => client.promptEnds.includes(EOR_CMD), 'an EOR prompt');
    expect(client.promptEnds.at(-1)).toBe(EOR_CMD);

    const mark = client.gmcp.length;
    client.line('quest accept first steps');
    const quests = (await client.waitForGmcp('Char.Quests.List', mark)) as { quests: unknown[] };
    expect(quests.quests).toEqual([
      expect.objectContaining({ name: 'First Steps', status: 'active', giver: 'Elder Maren' }),
    ]);

    const moved = client.gmcp.length;
    client.line('east');
    expect(await client.waitForGmcp('Room.Info', moved)).toMatchObject({
      num: num('village:market'),
      name: 'Market Row',
      exits: expect.objectContaining({ west: num('village:square') }),
    });
    const took = client.gmcp.length;
    client.line('take rope');
    expect(await client.waitForGmcp('Char.Items.List', took)).toEqual({
      location: 'inv',
      items: [{ id: 'village:rope', name: 'coil of rope', qty: 1 }],
    });
  });

  it('sends Comm.Channel.Text for say, shout and whisper, its own and other players’', async () => {
    const client = await connect({ gmcp: true });
    client.line('guest Telnet Bea');
    await client.waitForGmcp('Room.Info');
    const bob = await signIn(server.url);
    await act(server.url, bob, { action: 'look' }).expect(200);
    const bobName = (await act(server.url, bob, { action: 'look' })).body.player.name as string;

    client.line('say hello there');
    expect(await client.waitForGmcp('Comm.Channel.Text')).toEqual({
      channel: 'say',
      talker: 'Telnet Bea',
      text: 'You say: "hello there"',
    });
    const heard = () => client.gmcp.filter((m) => m.name === 'Comm.Channel.Text').map((m) => m.body);
    await act(server.url, bob, { action: 'say', text: 'hi from the web' }).expect(200);
    await act(server.url, bob, { action: 'shout', text: 'anyone about' }).expect(200);
    await act(server.url, bob, { action: 'whisper', to: 'Telnet Bea', text: 'psst' }).expect(200);
    await client.waitFor(() => heard().length >= 4, 'four chat lines');
    expect(heard().slice(1)).toEqual([
      { channel: 'say', talker: bobName, text: `${bobName} says: "hi from the web"` },
      { channel: 'shout', talker: bobName, text: `${bobName} shouts: "anyone about"` },
      { channel: 'whisper', talker: bobName, text: `${bobName} whispers to you: "psst"` },
    ]);
    expect(client.text).toContain(`${bobName} says: "hi from the web"`);
  });

  it('updates Char.Vitals from the world’s tick: blows taken, and the xp of a kill made in a combat round', async () => {
    // A seasoned web character in the wolves' thicket, brought to the terminal with a link code.
    const web = await signIn(server.url);
    await buildCharacter(server, web, { roomRef: 'forest:thicket', level: 5, health: 100, maxHealth: 100 });
    const issued = await request(server.url)
      .post('/mud/telnet/code')
      .set('Authorization', `Bearer ${web.token}`)
      .expect(201);
    const client = await connect({ gmcp: true });
    client.line(`code ${issued.body.code}`);
    expect(await client.waitForGmcp('Room.Info')).toMatchObject({ num: num('forest:thicket') });
    const vitals = () =>
      client.gmcp
        .filter((m) => m.name === 'Char.Vitals')
        .map((m) => m.body as { xp: number; health: number });

    // Wolves strike back in combat rounds, on the tick, and die there: both reach GMCP without another command.
    client.line('attack wolf');
    await client.waitFor(() => vitals().some((v) => v.health < 100), 'Char.Vitals after a blow', 15_000);
    await client.waitFor(() => vitals().some((v) => v.xp > 0), 'Char.Vitals with a kill’s xp', 15_000);
    expect(client.text).toMatch(/You gain \d+ experience/);
  });

  it('sends only the packages a client supports (Core.Supports.Set)', async () => {
    const client = await connect({ gmcp: true });
    client.sendGmcp('Core.Supports.Set', ['Char 1', 'Comm.Channel 1']);
    client.line('guest Telnet Cy');
    await client.waitForGmcp('Char.Vitals');
    await client.waitForText(/Village Square/);
    await client.waitFor(() => client.prompts > 1, 'the prompt after look');
    expect(client.gmcp.map((m) => m.name)).not.toContain('Room.Info');
    expect(client.gmcp.map((m) => m.name)).toContain('Char.Items.List');
  });

  it('compresses everything after IAC SB MCCP2 IAC SE when the client asks (MCCP2)', async () => {
    const client = await connect({ mccp2: true, gmcp: true });
    await client.waitFor(() => client.compressed, 'compression to start');
    client.line('guest Telnet Dee');
    await client.waitForGmcp('Room.Info');
    await client.waitForText(/Village Square/);
    client.line('look');
    await client.waitForText(/Village Square[\s\S]*Village Square/);
    expect(client.text).toContain('You are Telnet Dee. (guest)');
  });
});
