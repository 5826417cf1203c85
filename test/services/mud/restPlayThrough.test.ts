import type { MudEvent } from '../../../rooms/text/narration';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform, textsOf } from './worldPlatform';

/**
 * A slice of the play-through over the public REST routes (`POST /mud/move`, `POST /mud/action`) on the
 * whole platform with its real 10 ms tick: a talk-and-visit quest, the founder's riddle (a puzzle, answered
 * with `answer`), a collect quest and a kill quest, each handed in for its rewards. The full play-through
 * (`test/rooms/playThrough.test.ts`) runs every quest through the action gateway these routes call.
 */
describe('play-through over REST', () => {
  let server: TestPlatform;
  let hero: Player;
  const seen: MudEvent[] = [];

  beforeAll(async () => {
    server = await startWorldPlatform();
    hero = await signIn(server.url);
  });
  afterAll(() => server.stop());

  /** One action; 200 expected; its events are kept. */
  async function play(body: Record<string, unknown>): Promise<MudEvent[]> {
    const res = await act(server.url, hero, body);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({
      status: 200,
      body: 'ok',
    });
    seen.push(...res.body.events);
    return res.body.events;
  }

  async function walk(...directions: string[]): Promise<void> {
    for (const direction of directions) {
      const res = await act(server.url, hero, { direction }, '/mud/move');
      expect(res.status).toBe(200);
      seen.push(...res.body.events);
    }
  }

  async function complete(quest: string, xp: number, soft: number): Promise<void> {
    const events = await play({ action: 'quest', op: 'complete', quest });
    expect(events.find((e) => e.type === 'quest.completed')?.data).toMatchObject({ quest, xp, soft });
  }

  it('completes a talk/visit quest, a riddle, a collect quest and a kill quest', async () => {
    await play({ action: 'quest', op: 'accept', quest: 'First Steps' });
    await walk('west');
    await play({ action: 'talk', npc: 'smith' });
    await walk('east', 'east', 'east');
    await walk('west', 'west');
    await complete('First Steps', 10, 5);

    await play({ action: 'quest', op: 'accept', quest: "The Founder's Riddle" });
    expect(textsOf(await play({ action: 'command', line: 'answer a sword' }))).toContain(
      'Elder Maren shakes their head. "No. Think again."',
    );
    expect(textsOf(await play({ action: 'command', line: 'answer A spade!' }))).toContain(
      'Elder Maren smiles slowly. "That is the answer."',
    );
    await complete("The Founder's Riddle", 20, 5);

    await walk('north');
    await play({ action: 'quest', op: 'accept', quest: 'Herbs for the Healer' });
    await walk('south', 'east', 'east', 'east');
    // Two sprigs grow here and one more every 15 AI steps (1.5 s at this tick): keep picking, with a deadline.
    let herbs = 0;
    for (const end = Date.now() + 20_000; herbs < 3 && Date.now() < end;) {
      const res = await act(server.url, hero, { action: 'take', item: 'moonleaf' });
      if (res.status === 200) herbs += 1;
      else expect(res.body.code).toBe('NO_SUCH_ITEM');
    }
    expect(herbs).toBe(3);
    await walk('west', 'west', 'west', 'north');
    await complete('Herbs for the Healer', 25, 15);

    await walk('south', 'south');
    await play({ action: 'quest', op: 'accept', quest: 'Rats in the Cellar' });
    await walk('down');
    // Fight whatever rat is here until three have died at the hero's hand (a scared rat may flee upstairs).
    // Rats that share the cellar are numbered ("The first cellar rat dies ..."), the last one is not.
    const kills = () => seen.filter((e) => /^The (\w+ )?cellar rat dies at your hand\.$/.test(e.text)).length;
    for (const end = Date.now() + 30_000; kills() < 3 && Date.now() < end;) {
      const res = await act(server.url, hero, { action: 'look' });
      seen.push(...res.body.events);
      const here = res.body.events.find((e: MudEvent) => e.type === 'room.look')?.data.room;
      if (res.body.player.status !== 'idle' || !here?.creatures.length) continue;
      const attacked = await act(server.url, hero, { action: 'attack', target: here.creatures[0].id });
      seen.push(...(attacked.body.events ?? []));
    }
    expect(kills()).toBe(3);
    // Another rat may have joined the fight: let combat end (it resolves on the tick) before leaving.
    for (const end = Date.now() + 20_000; Date.now() < end;) {
      const res = await act(server.url, hero, { action: 'look' });
      if (res.body.player.status === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await walk('up');
    await complete('Rats in the Cellar', 20, 10);
  }, 90_000);
});
