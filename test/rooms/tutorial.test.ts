import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { WorldContentError } from '../../rooms/content/contentError';
import { runAction } from '../../rooms/commands/actions';
import { narrate } from '../../rooms/text/narration';
import { buildSim } from './fixtures/simContext';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_WORLD_DIR } from '../../rooms/content/loader';

describe('the tutorial', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  /** Runs a typed line for `userId` and returns what they read. */
  const typed = (sim: ReturnType<typeof buildSim>, userId: string, line: string) => {
    sim.drain();
    runAction(sim.ctx, userId, { action: 'command', line });
    return sim
      .drain()
      .filter((e) => 'userId' in e.to && e.to.userId === userId)
      .map((e) => narrate(e, userId).text);
  };

  it('tells a newcomer about it after every room description until they take a quest', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(typed(sim, 'ann', 'look')[0].split('\n').at(-1)).toBe('New here? Type "tutorial" for a hint.');
    expect(typed(sim, 'ann', 'e')[0].split('\n').at(-1)).toBe('New here? Type "tutorial" for a hint.');
    typed(sim, 'ann', 'w');
    typed(sim, 'ann', 'quest first steps');
    expect(typed(sim, 'ann', 'look')[0]).not.toContain('tutorial');
  });

  it("gives the room's hint from the world data and the next step, following the first quest", () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(typed(sim, 'ann', 'tutorial')).toEqual([
      [
        'Tutorial: Village Square',
        world.rooms.get('village:square')!.tutorial,
        'Next: Elder Maren has work for you: "talk elder", then "accept".',
      ].join('\n'),
    ]);
    typed(sim, 'ann', 'talk elder');
    typed(sim, 'ann', 'accept');
    expect(typed(sim, 'ann', 'hint')[0].split('\n')[2]).toBe(
      "Next: For First Steps: Talk to Brandal the smith (Brandal's Smithy, head west).",
    );
    typed(sim, 'ann', 'w');
    const atSmithy = typed(sim, 'ann', 'tutorial')[0].split('\n');
    expect(atSmithy[1]).toBe(world.rooms.get('village:smithy')!.tutorial);
    expect(atSmithy[2]).toBe('Next: For First Steps: Talk to Brandal the smith (right here).');
    typed(sim, 'ann', 'talk brandal');
    expect(typed(sim, 'ann', 'tutorial')[0].split('\n')[2]).toBe(
      'Next: For First Steps: Visit East Gate (East Gate, head east).',
    );
    for (const line of ['e', 'e', 'e']) typed(sim, 'ann', line);
    expect(typed(sim, 'ann', 'tutorial')[0].split('\n')[2]).toBe(
      'Next: First Steps is done: go back to Elder Maren (Village Square, head west) and type "complete".',
    );
    typed(sim, 'ann', 'w');
    typed(sim, 'ann', 'w');
    typed(sim, 'ann', 'complete');
    // The elder's next quest (the founder's riddle) opens once First Steps is done.
    expect(typed(sim, 'ann', 'tutorial')[0].split('\n')[2]).toBe(
      'Next: Elder Maren has work for you: "talk elder", then "accept".',
    );
  });

  it('points at the nearest quest giver, and has a plain hint for rooms without one', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:kitchen' });
    world.quests.forEach((quest) => {
      if (quest.giver === 'village:elder')
        sim.journals.get('ann')!.quests.set(quest.ref, { status: 'completed', counts: [] });
    });
    expect(typed(sim, 'ann', 'tutorial')[0].split('\n').slice(1)).toEqual([
      world.rooms.get('village:kitchen')!.tutorial,
      'Next: Marta the innkeeper has work for you (The Sleeping Boar Inn, head west).',
    ]);
    const forest = buildSim(world, 'forest');
    forest.addPlayer('bob', { roomRef: 'forest:stream' });
    expect(typed(forest, 'bob', 'tutorial')[0].split('\n')[1]).toBe(
      'Nothing here needs explaining: "look" describes the room, "map" shows the way around.',
    );
  });

  it('reports a bad tutorial hint with its file and field', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'world-'));
    try {
      await cp(DEFAULT_WORLD_DIR, dir, { recursive: true });
      const file = path.join(dir, 'village', 'area.yml');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace(/^ {4}tutorial: >-\n(?: {6}.*\n)+/m, '    tutorial: ""\n'));
      const error = await loadWorld(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorldContentError);
      expect((error as WorldContentError).issues).toEqual([
        {
          file: 'village/area.yml',
          path: 'rooms.square.tutorial',
          message: expect.stringMatching(/>=1 characters/),
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
