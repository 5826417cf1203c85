import type { MudEvent } from '../../../rooms/text/narration';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform } from './worldPlatform';

/**
 * A newcomer's first minutes over the public REST route (`POST /mud/action`, typed lines only), played by a script
 * that knows nothing of the world and never types `help`: it reads what the game says and does what that text
 * suggests — the "New here? Type "tutorial"" line, the tutorial's next step ("head west", "talk elder", "Talk to
 * Brandal the smith (right here)"), the offer's `Type "accept"`, and the finished quest's `type "complete"`. It
 * finds the elder's first quest, takes it, does it and hands it in.
 */
describe('a newcomer over REST, without help', () => {
  let server: TestPlatform;
  let newcomer: Player;

  beforeAll(async () => {
    server = await startWorldPlatform();
    newcomer = await signIn(server.url);
  });
  afterAll(() => server.stop());

  it('finds, takes and finishes the first quest by following what the game says', async () => {
    const typed: string[] = [];
    const read: string[] = [];
    async function type(line: string): Promise<string[]> {
      typed.push(line);
      const res = await act(server.url, newcomer, { action: 'command', line });
      expect({ line, status: res.status, detail: res.body.detail }).toEqual({
        line,
        status: 200,
        detail: undefined,
      });
      const texts = (res.body.events as MudEvent[]).map((e) => e.text);
      read.push(...texts);
      return texts;
    }
    /** The first quoted command a line suggests (`Type "accept" to take it.` → `accept`). */
    const suggested = (texts: string[], pattern: RegExp) =>
      texts.map((text) => pattern.exec(text)?.[1]).find(Boolean);

    const first = await type('look');
    expect(first.join('\n')).toContain('New here? Type "tutorial" for a hint.');
    let done = false;
    for (let step = 0; step < 30 && !done; step++) {
      const hint = (await type('tutorial')).join('\n');
      const next = /^Next: (.*)$/m.exec(hint)?.[1] ?? '';
      let heard: string[];
      const way = /head (\w+)\)/.exec(next);
      const talkTo = /Talk to (.+?) \(right here\)/.exec(next);
      const commands = [...next.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      if (way) heard = await type(way[1]);
      else if (talkTo) heard = await type(`talk ${talkTo[1]}`);
      else if (commands.length > 0) heard = await type(commands[0]);
      else throw new Error(`the tutorial gave no step to follow: ${hint}`);
      // An offer says how to take it; a finished quest says how to hand it in where its giver stands.
      const accept = suggested(heard, /Type "(accept)" to take it\./);
      if (accept) heard = await type(accept);
      if (heard.some((text) => text.startsWith('Quest complete: First Steps!'))) done = true;
    }

    expect(done).toBe(true);
    expect(typed).not.toContain('help');
    expect(typed.slice(0, 5)).toEqual(['look', 'tutorial', 'talk elder', 'accept', 'tutorial']);
    expect(read).toEqual(
      expect.arrayContaining([
        'Elder Maren has work for you: First Steps. Type "accept" to take it.\nYou could ask about: founder, chickens.',
        'Quest accepted: First Steps. [ ] Talk to Brandal the smith (0/1); [ ] Visit East Gate (0/1)',
        'All done for First Steps: return to Elder Maren and type "complete" to hand it in.',
        'Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1.',
      ]),
    );
    // Straight there and back: talk, accept, west, talk to the smith, three steps east, two west, complete.
    expect(typed.filter((line) => line !== 'tutorial')).toEqual([
      'look',
      'talk elder',
      'accept',
      'west',
      'talk Brandal the smith',
      'east',
      'east',
      'east',
      'west',
      'west',
      'complete',
    ]);
  });
});
