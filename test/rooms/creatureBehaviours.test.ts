import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { attack, combatRound } from '../../rooms/systems/combat';
import { runCreatureAi } from '../../rooms/systems/creatureAi';
import { narrate } from '../../rooms/systems/narration';
import { spawnCreature } from '../../rooms/systems/spawns';
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
});
