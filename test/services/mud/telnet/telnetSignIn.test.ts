import request from 'supertest';
import { IAC, Option, WILL, WONT } from '../../../../services/mud/telnet/telnetCodes';
import { freePort } from '../../../helpers/nginx';
import type { TestPlatform } from '../../../helpers/platform';
import { ChannelClient, act, signIn, startWorldPlatform } from '../worldPlatform';
import { TelnetTestClient } from './telnetClient';

const PASSWORD = 'correct horse battery';
// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI_SGR = /\x1b\[[0-9;]*m/g;

/** Sign-in at the telnet prompt, the terminal's text (width, colour, escaping) and one character in two clients. */
describe('telnet port: sign-in and the terminal', () => {
  let server: TestPlatform;
  let port: number;
  const open: TelnetTestClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    server = await startWorldPlatform({ TELNET_PORT: String(port), GUEST_SIGNIN_PER_HOUR: '1000' });
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

  /** A verified email account (through the development outbox); its session token. */
  const emailAccount = async (email: string) => {
    await request(server.url).post('/auth/email/register').send({ email, password: PASSWORD }).expect(202);
    const outbox = await request(server.url).get('/dev/outbox').expect(200);
    const mail = outbox.body.mails.find((entry: { to: string }) => entry.to === email);
    const code = /code is:\n\n(\S+)/.exec(mail.text)?.[1] ?? '';
    const verified = await request(server.url).post('/auth/email/verify').send({ code }).expect(200);
    return { token: verified.body.token as string, userId: verified.body.user_id as string };
  };

  it('signs an email account in with echo off for the password, into the same character as the web', async () => {
    const email = `tess-${Date.now()}@example.com`;
    const account = await emailAccount(email);
    const web = await act(server.url, account, { action: 'move', direction: 'east' }).expect(200);
    const client = await connect({ gmcp: true });

    client.line(email);
    await client.waitForText(/Password: $/);
    expect(client.received.at(-1)).toEqual({ verb: WILL, option: Option.ECHO });
    client.line('wrong password');
    await client.waitFor(
      () => client.received.some((n) => n.verb === WONT && n.option === Option.ECHO),
      'WONT ECHO',
    );
    await client.waitForText(/Invalid email or password\r\nName or email: $/);

    client.line(email.toUpperCase());
    await client.waitForText(/Password: $/, client.text.length - 10);
    client.line(PASSWORD);
    expect(await client.waitForGmcp('Char.Name')).toMatchObject({ name: web.body.player.name, guest: false });
    await client.waitForText(/Market Row/);
    expect(client.text).not.toContain(PASSWORD);
  });

  it('signs a terminal into a web user’s character with a one-time code (link telnet), once', async () => {
    await request(server.url).post('/mud/telnet/code').expect(401);
    const web = await signIn(server.url);
    const name = (await act(server.url, web, { action: 'look' }).expect(200)).body.player.name as string;
    const issued = await request(server.url)
      .post('/mud/telnet/code')
      .set('Authorization', `Bearer ${web.token}`)
      .expect(201);
    expect(issued.body).toEqual({
      code: expect.stringMatching(/^[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$/),
      expires_at: expect.any(String),
      expires_in: 300,
    });
    const openapi = await request(server.url).get('/openapi.json').expect(200);
    expect(openapi.body.paths['/mud/telnet/code'].post.responses['201']).toBeDefined();

    const client = await connect({ gmcp: true });
    client.line(`code ${(issued.body.code as string).toLowerCase()}`);
    expect(await client.waitForGmcp('Char.Name')).toEqual({ name, fullname: name });
    await client.waitForText(/Village Square[\s\S]*> $/);

    const again = await connect();
    again.line(`code ${issued.body.code}`);
    await again.waitForText(/That code is unknown, used or expired\.\r\nName or email: $/);
  });

  it('keeps a character in the world for its terminal when the same user’s browser channel closes', async () => {
    const web = await signIn(server.url);
    const issued = await request(server.url)
      .post('/mud/telnet/code')
      .set('Authorization', `Bearer ${web.token}`)
      .expect(201);
    const terminal = await connect();
    terminal.line(`code ${issued.body.code}`);
    await terminal.waitForText(/Village Square[\s\S]*> $/);
    const tab = await ChannelClient.open(server.url, web.userId, web.token);
    await tab.waitFor((frame) => frame.type === 'result');
    await tab.close();

    const bob = await signIn(server.url);
    await act(server.url, bob, { action: 'look' }).expect(200);
    const from = terminal.text.length;
    await act(server.url, bob, { action: 'say', text: 'tab closed?' }).expect(200);
    await terminal.waitForText(/says: "tab closed\?"/, from);
  });

  it('refuses a bad guest name with the reason, and closes after three failures', async () => {
    const client = await connect();
    client.line('guest x');
    await client.waitForText(/Display name: expected 3 to 24 characters\r\nName or email: $/);
    client.line('guest admin');
    await client.waitForText(/This display name is not allowed\r\nName or email: $/);
    client.line('nobody@example.com');
    await client.waitForText(/Password: $/);
    client.line('nothing');
    await client.waitForText(/Too many failed sign-ins\./);
    await client.waitForClose();
  });

  it('wraps to the NAWS width (255 arrives escaped as IAC IAC) and turns colour off on `color off`', async () => {
    // The greeting may leave before the window size arrives; everything after sign-in is wrapped.
    const narrow = await connect({ naws: 40 });
    const signedIn = narrow.text.length;
    narrow.line('guest Narrow Nell');
    await narrow.waitForText(/Cobbles worn smooth[\s\S]*> $/);
    const lines = narrow.text.slice(signedIn).replace(ANSI_SGR, '').split('\r\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(39);
    expect(narrow.text).toContain('\x1b[1;36mVillage Square\x1b[0m');

    const wide = await connect();
    wide.sendNaws(255);
    wide.line('guest Wide Will');
    await wide.waitForText(/Cobbles worn smooth[\s\S]*> $/);
    expect(wide.text).toMatch(/Cobbles worn smooth[^\r\n]{100,}/);

    const from = narrow.text.length;
    narrow.line('color off');
    await narrow.waitForText(/Colour is off\./, from);
    narrow.line('look');
    await narrow.waitForText(/Village Square[\s\S]*> $/, from);
    expect(narrow.text.slice(from)).not.toContain('\x1b[');
  });

  it('reads IAC IAC in input as data, never as a command, and escapes nothing it should not', async () => {
    const client = await connect();
    client.line('guest Escape Eve');
    await client.waitForText(/> $/);
    const from = client.text.length;
    client.raw(Buffer.concat([Buffer.from('say a'), Buffer.of(IAC, IAC), Buffer.from('b\r\n')]));
    await client.waitForText(/You say: "a\uFFFDb"/, from);
    client.line('say ÿ and 😀');
    await client.waitForText(/You say: "ÿ and 😀"/, from);
  });

  it('keeps a character in the world while another client still plays it', async () => {
    const email = `two-${Date.now()}@example.com`;
    await emailAccount(email);
    const first = await connect();
    const second = await connect();
    for (const client of [first, second]) {
      client.line(email);
      await client.waitForText(/Password: $/);
      client.line(PASSWORD);
      await client.waitForText(/Village Square[\s\S]*> $/);
    }
    // The first terminal quits; had it let the character leave, the second would hear nobody any more.
    first.line('quit');
    await first.waitForClose();
    const bob = await signIn(server.url);
    await act(server.url, bob, { action: 'look' }).expect(200);
    const from = second.text.length;
    await act(server.url, bob, { action: 'say', text: 'still there?' }).expect(200);
    await second.waitForText(/says: "still there\?"/, from);
    second.line('who');
    await second.waitForText(/In Thornwick Village:/, from);
  });
});
