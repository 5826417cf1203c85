import { freePort } from '../../../helpers/nginx';
import type { TestPlatform } from '../../../helpers/platform';
import { startWorldPlatform } from '../worldPlatform';
import { TelnetTestClient } from './telnetClient';

// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI_SGR = /\x1b\[[0-9;]*m/g;

/**
 * The newcomer's first minutes over the telnet port, as a MUD player would live them: sign in with `guest`, then a
 * script that knows nothing of the world and never types `help` reads what the terminal shows and does what it
 * suggests — the tutorial's next step, the offer's `Type "accept"`, the finished quest's `type "complete"` — until the
 * elder's first quest is handed in. The REST twin is newcomerPlayThrough.test.ts; this one proves the same path
 * works through the telnet channel's line handling, wrapping and prompts.
 */
describe('a newcomer over telnet, without help', () => {
  let server: TestPlatform;
  let client: TelnetTestClient;

  beforeAll(async () => {
    const port = await freePort();
    server = await startWorldPlatform({ TELNET_PORT: String(port) });
    // A wide window (NAWS) so a suggestion is never wrapped mid-sentence; EOR marks each prompt.
    client = await TelnetTestClient.connect(port, { eor: true, naws: 250 });
    await client.waitForText(/Name or email: $/);
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  /** Types a line and returns the plain text the terminal showed until its prompt and a quiet moment after. */
  async function type(line: string): Promise<string> {
    const from = client.text.length;
    const prompts = client.promptEnds.length;
    client.line(line);
    await client.waitFor(() => client.promptEnds.length > prompts, `a prompt after "${line}"`, 10_000);
    for (let seen = -1; seen !== client.text.length;) {
      seen = client.text.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return client.text.slice(from).replace(ANSI_SGR, '').replace(/\r\n/g, '\n');
  }

  it('signs in as a guest, then finds, takes and finishes the first quest by following what the game says', async () => {
    const typed: string[] = [];
    const play = (line: string) => {
      typed.push(line);
      return type(line);
    };
    const welcome = await type('guest Newcomer');
    expect(welcome).toContain('Village Square');
    expect(welcome).toContain('New here? Type "tutorial" for a hint.');

    const read: string[] = [];
    let done = false;
    for (let step = 0; step < 30 && !done; step++) {
      const hint = await play('tutorial');
      const next = /^Next: (.*)$/m.exec(hint)?.[1] ?? '';
      const way = /head (\w+)\)/.exec(next);
      const talkTo = /Talk to (.+?) \(right here\)/.exec(next);
      const commands = [...next.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      let heard: string;
      if (way) heard = await play(way[1]);
      else if (talkTo) heard = await play(`talk ${talkTo[1]}`);
      else if (commands.length > 0) heard = await play(commands[0]);
      else throw new Error(`the tutorial gave no step to follow: ${hint}`);
      if (/Type "accept" to take it\./.test(heard)) heard += await play('accept');
      read.push(heard);
      if (heard.includes('Quest complete: First Steps!')) done = true;
    }

    expect(done).toBe(true);
    expect(typed).not.toContain('help');
    expect(typed.slice(0, 3)).toEqual(['tutorial', 'talk elder', 'accept']);
    const transcript = read.join('\n');
    expect(transcript).toContain('Elder Maren has work for you: First Steps. Type "accept" to take it.');
    expect(transcript).toContain('Quest accepted: First Steps.');
    expect(transcript).toContain('Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1.');
  }, 120_000);
});
