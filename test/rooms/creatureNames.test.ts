import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { runAction } from '../../rooms/commands/actions';
import { combatRound } from '../../rooms/rules/combat';
import { walk } from '../../rooms/rules/creatures/creatureAi';
import { splitOrdinal } from '../../rooms/rules/creatures/creatureNames';
import { ordinalWord } from '../../rooms/text/words';
import { narrate } from '../../rooms/text/narration';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { buildSim } from './fixtures/simContext';

describe('creatures of one kind in one room', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  /** What `userId` reads of everything emitted since the last call (to them or their room). */
  const read = (sim: ReturnType<typeof buildSim>, userId: string) => {
    const roomRef = sim.ctx.state.players.get(userId)!.roomRef;
    return sim
      .drain()
      .filter(
        (e) =>
          ('userId' in e.to && e.to.userId === userId) || ('roomRef' in e.to && e.to.roomRef === roomRef),
      )
      .map((e) => narrate(e, userId).text);
  };

  const hens = (sim: ReturnType<typeof buildSim>, roomRef = 'village:square') => [
    spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, roomRef, 'p1'),
    spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, roomRef, 'p2'),
  ];

  it('reads ordinals and numbered names the way players type them', () => {
    expect([1, 2, 3, 10, 11, 12, 13, 21, 22, 23, 101].map(ordinalWord)).toEqual([
      'first',
      'second',
      'third',
      'tenth',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
    ]);
    expect(splitOrdinal('2.hen')).toEqual({ nth: 2, name: 'hen' });
    expect(splitOrdinal('the Second  speckled hen')).toEqual({ nth: 2, name: 'speckled hen' });
    expect(splitOrdinal('hen 3')).toEqual({ nth: 3, name: 'hen' });
    expect(splitOrdinal('3rd hen')).toEqual({ nth: 3, name: 'hen' });
    expect(splitOrdinal('speckled hen')).toEqual({ name: 'speckled hen' });
  });

  it('numbers them in look, arrivals, death and departures, and targets the one a number names', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:square', level: 5 });
    const [first, second] = hens(sim);
    expect(read(sim, 'ann')).toEqual(['A speckled hen appears.', 'A second speckled hen appears.']);
    runAction(sim.ctx, 'ann', { action: 'look' });
    expect(read(sim, 'ann')[0]).toContain(
      'Creatures: first speckled hen (calm), second speckled hen (calm).',
    );
    runAction(sim.ctx, 'ann', { action: 'command', line: 'consider hen 2' });
    expect(read(sim, 'ann')[0]).toMatch(/^The second speckled hen \(level 1\) would be/);

    runAction(sim.ctx, 'ann', { action: 'command', line: 'attack 2.hen' });
    expect(ann.target).toBe(second.id);
    expect(read(sim, 'ann')[0]).toBe('You attack the second speckled hen!');
    expect(() => runAction(sim.ctx, 'ann', { action: 'command', line: 'kill second hen' })).toThrow(
      'You are already fighting the second speckled hen.',
    );
    for (let round = 0; round < 30 && sim.ctx.state.creatures.has(second.id); round++) combatRound(sim.ctx);
    const fight = read(sim, 'ann');
    const death = fight.indexOf('The second speckled hen dies at your hand.');
    expect(death).toBeGreaterThan(0);
    // Until it dies every line names it as the second; after, the one left is just "the speckled hen".
    expect(fight.slice(0, death).filter((line) => !/the second speckled hen/.test(line))).toEqual([]);
    expect(fight.slice(death + 1).filter((line) => /second|first/.test(line))).toEqual([]);

    walk(sim.ctx, first, 'east', 'village:market');
    expect(read(sim, 'ann')).toEqual(['The speckled hen heads east.']);
  });

  it('a newcomer of the kind is numbered after those already there', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:market' });
    const [, wanderer] = hens(sim);
    const local = spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, 'village:market', 'p3');
    sim.drain();
    walk(sim.ctx, wanderer, 'east', 'village:market');
    expect(read(sim, 'ann')).toEqual(['A second speckled hen arrives from the west.']);
    runAction(sim.ctx, 'ann', { action: 'attack', target: 'first hen' });
    expect(sim.ctx.state.players.get('ann')!.target).toBe(local.id);
  });
});
