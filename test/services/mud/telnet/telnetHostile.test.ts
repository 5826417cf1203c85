import request from 'supertest';
import { ManualClock } from '../../../../platform/clock';
import { Option } from '../../../../services/mud/telnet/telnetCodes';
import { subnegotiation } from '../../../../services/mud/telnet/telnetParser';
import { freePort } from '../../../helpers/nginx';
import type { TestPlatform } from '../../../helpers/platform';
import { startWorldPlatform } from '../worldPlatform';
import { TelnetTestClient } from './telnetClient';

/** Bytes from a fixed-seed generator (xorshift32), so the garbage is the same on every run. */
function garbage(length: number, seed = 0x2545f491): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

const IDLE_SECONDS = 600;

/**
 * Hostile clients on the telnet port: none of them stops another player from signing in and playing. Time is a
 * ManualClock, so the sign-in and idle timeouts are reached by moving it, not by waiting.
 */
describe('telnet port: hostile input', () => {
  let server: TestPlatform;
  let port: number;
  const clock = new ManualClock(Date.now());
  const open: TelnetTestClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    server = await startWorldPlatform(
      {
        TELNET_PORT: String(port),
        GUEST_SIGNIN_PER_HOUR: '1000',
        TELNET_MAX_PER_ADDRESS: '1000',
        TELNET_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
      },
      clock,
    );
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  const connect = async (localAddress?: string) => {
    const client = await TelnetTestClient.connect(port, {}, localAddress);
    open.push(client);
    await client.waitForText(/Name or email: $/);
    return client;
  };
  /** A guest that signs in and walks east: what every test checks still works. */
  const playerStillPlays = async (name: string) => {
    const client = await connect();
    client.line(`guest ${name}`);
    await client.waitForText(/Village Square[\s\S]*> $/);
    const from = client.text.length;
    client.line('east');
    await client.waitForText(/Market Row[\s\S]*> $/, from);
    return client;
  };

  it('survives binary garbage before and after sign-in', async () => {
    const before = await connect();
    before.raw(garbage(64 * 1024));
    const after = await playerStillPlays('Garbage Gus');
    after.raw(garbage(64 * 1024, 7));
    await playerStillPlays('Bystander Bo');
    // The first garbage client is still connected, or was told why it was closed.
    expect(!before.closed || /Too much telnet negotiation|Too many failed sign-ins/.test(before.text)).toBe(
      true,
    );
  });

  it('ignores an overlong line and says so, then goes on', async () => {
    const client = await playerStillPlays('Longwinded Lu');
    const from = client.text.length;
    client.line(`say ${'a'.repeat(5000)}`);
    await client.waitForText(/That line was longer than 1024 bytes and was ignored\./, from);
    client.line('look');
    await client.waitForText(/Market Row/, from);
    expect(client.text.slice(from)).not.toContain('aaaa');
  });

  it('closes a connection that floods negotiation, and drops an endless subnegotiation whole', async () => {
    const flooder = await connect();
    flooder.raw(Buffer.concat(Array.from({ length: 5000 }, () => Buffer.of(255, 253, 99))));
    await flooder.waitForText(/Too much telnet negotiation; closing\./);
    await flooder.waitForClose();

    const client = await playerStillPlays('Subneg Sid');
    const from = client.text.length;
    client.raw(subnegotiation(Option.GMCP, `Core.Hello ${'x'.repeat(200_000)}`));
    client.line('look');
    await client.waitForText(/Market Row[\s\S]*> $/, from);
  });

  it('caps connections per address, and closes slow and idle connections when their time is up', async () => {
    // A thousand connections from one host that never sign in (a slow-loris trickling bytes among them).
    const idle: TelnetTestClient[] = [];
    for (let i = 0; i < 1000; i++) idle.push(await TelnetTestClient.connect(port, {}, '127.0.0.2'));
    open.push(...idle);
    const refused = await TelnetTestClient.connect(port, {}, '127.0.0.2');
    open.push(refused);
    await refused.waitForText(/Too many connections from your address/);
    await refused.waitForClose();
    const slow = idle[0];
    slow.raw(Buffer.from('gu'));

    const started = Date.now();
    const player = await playerStillPlays('Patient Pat');
    expect(Date.now() - started).toBeLessThan(3000);

    clock.advance(61_000);
    for (const client of idle) await client.waitForClose(10_000);
    expect(slow.text).toContain('You did not sign in in time; goodbye.');
    expect(player.closed).toBe(false);

    clock.advance(IDLE_SECONDS * 1000);
    await player.waitForText(/You were idle too long; your character is saved\. Goodbye\./);
    await player.waitForClose();

    const metrics = (await request(server.url).get('/metrics').expect(200)).text;
    const dropped = (reason: string) =>
      Number(
        new RegExp(`^telnet_connections_dropped_total\\{reason="${reason}"\\} (\\d+)`, 'm').exec(
          metrics,
        )?.[1],
      );
    expect(dropped('connection_cap')).toBeGreaterThanOrEqual(1);
    expect(dropped('sign_in_timeout')).toBeGreaterThanOrEqual(1000);
    expect(dropped('idle_timeout')).toBeGreaterThanOrEqual(1);
    expect(dropped('negotiation_flood')).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(/^telnet_connections \d+$/m);
  });
});
