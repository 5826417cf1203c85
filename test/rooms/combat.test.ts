import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { attack, combatRound, flee, hitChance } from '../../rooms/rules/combat';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { narrate } from '../../rooms/text/narration';
import { createRng } from '../../rooms/rules/random';
import { spawnCreature } from '../../rooms/rules/creatures/spawns';
import { killPlayer, regenerate, rest } from '../../rooms/rules/vitals';
import { buildSim } from './fixtures/simContext';

describe('combat, flee, rest, death', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('the RNG is deterministic per seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    expect([a.next(), a.int(1, 6), a.chance(0.5)]).toEqual([b.next(), b.int(1, 6), b.chance(0.5)]);
    expect(createRng('7:village').next()).toBe(createRng('7:village').next());
  });

  it('hit chance is 70% ± 5% per point, clamped', () => {
    expect(hitChance(3, 1)).toBeCloseTo(0.8);
    expect(hitChance(0, 20)).toBe(0.1);
    expect(hitChance(30, 0)).toBe(0.95);
  });

  it('fights a rat to the death on combat rounds, with the same outcome for the same seed', () => {
    const run = () => {
      const sim = buildSim(world, 'village');
      const player = sim.addPlayer('ann', { roomRef: 'village:cellar' });
      const rat = spawnCreature(
        sim.ctx,
        world.creatures.get('village:rat')!,
        'village:cellar',
        'village:cellar#0',
      );
      attack(sim.ctx, 'ann', 'rat');
      let rounds = 0;
      while (sim.ctx.state.creatures.has(rat.id) && rounds < 50) {
        combatRound(sim.ctx);
        rounds += 1;
      }
      return {
        rounds,
        health: player.health,
        xp: player.xp,
        status: player.status,
        texts: sim.events.map((e) => narrate(e, 'ann').text),
      };
    };
    const first = run();
    expect(first).toEqual(run());
    expect(first.status).toBe('idle');
    expect(first.xp).toBe(4);
    expect(first.texts[0]).toBe('A cellar rat appears.');
    expect(first.texts).toContain('You attack the cellar rat!');
    expect(first.texts).toContain('The cellar rat dies at your hand.');
    expect(first.texts).toContain('You gain 4 experience.');
  });

  it('rejects fleeing when not fighting and moves the player out on success', () => {
    const sim = buildSim(world, 'village', { seed: 3 });
    const player = sim.addPlayer('ann', { roomRef: 'village:square' });
    expect(() => flee(sim.ctx, 'ann')).toThrow(
      new ActionRejectedError('NOT_FIGHTING', 'You are not fighting anything.'),
    );
    spawnCreature(sim.ctx, world.creatures.get('village:chicken')!, 'village:square', 'village:square#0');
    attack(sim.ctx, 'ann', 'hen');
    for (let i = 0; i < 10 && player.status === 'fighting'; i++) flee(sim.ctx, 'ann');
    expect(player.status).toBe('idle');
    expect(player.roomRef).not.toBe('village:square');
    expect(sim.events.some((e) => e.type === 'flee.succeeded')).toBe(true);
  });

  it('rests to full health, doubled in a rest room, and respawns the dead', () => {
    const sim = buildSim(world, 'village');
    const player = sim.addPlayer('ann', { roomRef: 'village:inn', health: 10 });
    rest(sim.ctx, 'ann');
    expect(() => rest(sim.ctx, 'ann')).toThrow(
      new ActionRejectedError('ALREADY_RESTING', 'You are already resting.'),
    );
    regenerate(sim.ctx);
    expect(player.health).toBe(16);
    for (let i = 0; i < 4; i++) regenerate(sim.ctx);
    expect(player.health).toBe(30);
    expect(player.status).toBe('idle');
    expect(sim.events.map((e) => e.type)).toContain('rest.stopped');

    player.status = 'dead';
    player.health = 0;
    regenerate(sim.ctx);
    expect(player.status).toBe('idle');
    expect(player.health).toBe(15);
    expect(player.roomRef).toBe('village:chapel');
  });

  it('a slain player leaves the room they died in and wakes at the respawn room', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:cellar', soft: 25 });
    sim.addPlayer('bob', { roomRef: 'village:cellar' });
    killPlayer(sim.ctx, ann, { name: 'cellar rat' });
    expect([ann.soft, ann.status]).toEqual([23, 'dead']);
    sim.drain();
    regenerate(sim.ctx);
    const seenByBob = sim
      .drain()
      .filter((e) => 'roomRef' in e.to && e.to.roomRef === 'village:cellar' && e.to.except !== 'bob')
      .map((e) => narrate(e, 'bob').text);
    expect(seenByBob).toEqual(['Ann leaves.']);
    expect([ann.status, ann.health, ann.roomRef]).toEqual(['idle', 15, 'village:chapel']);
  });
});
