import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { attack, combatRound } from '../../rooms/rules/combat';
import { examine } from '../../rooms/commands/info';
import { look } from '../../rooms/rules/movement';
import { runCreatureAi } from '../../rooms/rules/creatures/creatureAi';
import { narrate } from '../../rooms/text/narration';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { buildSim } from './fixtures/simContext';

describe('creature behaviours attached from data', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('a boss enters each phase once as its health falls, and hits harder', () => {
    const sim = buildSim(world, 'peaks');
    const ann = sim.addPlayer('ann', { roomRef: 'peaks:drake_lair', level: 12 });
    ann.maxHealth = ann.health = 2000;
    const drake = spawnCreature(sim.ctx, world.creatures.get('peaks:drake')!, 'peaks:drake_lair', 'p');
    attack(sim.ctx, 'ann', 'drake');
    const phases: string[] = [];
    for (let round = 0; round < 100 && sim.ctx.state.creatures.has(drake.id); round++) {
      combatRound(sim.ctx);
      phases.push(
        ...sim
          .drain()
          .filter((e) => e.type === 'creature.phase')
          .map((e) => narrate(e, 'ann').text),
      );
      if (drake.health > 0 && drake.health / drake.maxHealth < 0.6 && phases.length === 1) {
        expect(sim.ctx.minds.get(drake.id)!.bonusAttack).toBe(2);
      }
    }
    expect(phases).toEqual([
      'The fire drake rears up, and the cracks in the floor flare white. It is angry now.',
      'The fire drake roars, and flame pours from every scale: it fights for its life!',
    ]);
  });

  it('a pack turns on whoever attacks one of its own', () => {
    const sim = buildSim(world, 'marsh');
    sim.addPlayer('ann', { roomRef: 'marsh:mudflats' });
    const hound = world.creatures.get('marsh:hound')!;
    const first = spawnCreature(sim.ctx, hound, 'marsh:mudflats', 'p');
    const second = spawnCreature(sim.ctx, hound, 'marsh:mudflats', 'p');
    attack(sim.ctx, 'ann', first.id);
    expect([first.target, second.target]).toEqual(['ann', 'ann']);
  });

  it('a territorial creature warns off and attacks a player who lingers', () => {
    const sim = buildSim(world, 'ruins');
    const ann = sim.addPlayer('ann', { roomRef: 'ruins:guardroom' });
    const sentry = spawnCreature(sim.ctx, world.creatures.get('ruins:sentry')!, 'ruins:guardroom', 'p');
    runCreatureAi(sim.ctx);
    expect(sentry.target).toBe('');
    runCreatureAi(sim.ctx);
    expect([sentry.target, ann.status]).toEqual(['ann', 'fighting']);
    expect(sim.events.map((e) => narrate(e, 'ann').text)).toContain(
      'The skeleton sentry has had enough of you and attacks!',
    );
  });

  it('an ambusher lies hidden until a player lingers, then strikes first and hides again when calm', () => {
    const sim = buildSim(world, 'caves');
    const slime = spawnCreature(sim.ctx, world.creatures.get('caves:slime')!, 'caves:slime_pit', 'p');
    expect(sim.drain()).toEqual([]);
    const ann = sim.addPlayer('ann', { roomRef: 'caves:slime_pit' });
    look(sim.ctx, 'ann');
    expect(sim.drain().find((e) => e.type === 'room.look')).toMatchObject({ room: { creatures: [] } });
    expect(() => attack(sim.ctx, 'ann', 'slime')).toThrow('There is no "slime" here to fight.');
    expect(() => examine(sim.ctx, 'ann', 'slime')).toThrow();
    runCreatureAi(sim.ctx);
    expect([slime.target, ann.status, sim.drain()]).toEqual(['', 'idle', []]);
    runCreatureAi(sim.ctx);
    expect([slime.target, ann.status, ann.target]).toEqual(['ann', 'fighting', slime.id]);
    expect(sim.drain().map((e) => narrate(e, 'ann').text)[0]).toBe(
      'A cave slime bursts from hiding and springs at you!',
    );
    const health = ann.health;
    combatRound(sim.ctx);
    const round = sim.drain().filter((e) => e.type === 'combat.hit' || e.type === 'combat.missed');
    expect(round[0]).toMatchObject({ attacker: { name: 'cave slime' }, target: { userId: 'ann' } });
    expect(round.length).toBe(3);
    expect(ann.health).toBeLessThanOrEqual(health);
    sim.ctx.state.players.delete('ann');
    for (let step = 0; step < 100; step++) runCreatureAi(sim.ctx);
    expect(sim.ctx.minds.get(slime.id)!.hidden).toBe(true);
  });

  it('the world gives the ambusher behaviour to at least two creature kinds', () => {
    const ambushers = [...world.creatures.values()].filter((c) => c.behaviors.ambusher).map((c) => c.ref);
    expect(ambushers).toEqual(expect.arrayContaining(['caves:slime', 'forest:spider']));
  });
});
