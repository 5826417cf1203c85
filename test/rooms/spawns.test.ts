import { loadWorld } from '../../rooms/content/loader';
import { combatRound, attack } from '../../rooms/rules/combat';
import { buildSim } from './fixtures/simContext';

describe('spawns', () => {
  it('fills spawn points within the area budget and keeps the rest pending', async () => {
    const world = await loadWorld();
    const sim = buildSim(world, 'caves', { populate: true });
    const status = sim.spawns.status(sim.ctx);
    expect([status.areaId, status.budget, status.live, status.pending]).toEqual(['caves', 10, 10, 1]);
    expect(status.points.find((p) => p.id === 'caves:collapsed_shaft#0')).toEqual({
      id: 'caves:collapsed_shaft#0',
      roomRef: 'caves:collapsed_shaft',
      creature: 'caves:cave_bear',
      max: 1,
      live: 0,
      pending: 1,
    });
  });

  it('refills a killed creature after its delay', async () => {
    const world = await loadWorld();
    const sim = buildSim(world, 'village', { populate: true });
    expect(sim.spawns.status(sim.ctx).live).toBe(5);
    sim.addPlayer('ann', { roomRef: 'village:square', level: 9 });
    attack(sim.ctx, 'ann', 'hen');
    while (sim.ctx.state.creatures.size === 5) combatRound(sim.ctx);
    expect(sim.spawns.status(sim.ctx)).toMatchObject({ live: 4, pending: 1 });
    sim.ctx.state.tick += 39;
    sim.spawns.run(sim.ctx);
    expect(sim.spawns.status(sim.ctx)).toMatchObject({ live: 4, pending: 1 });
    sim.ctx.state.tick += 1;
    sim.spawns.run(sim.ctx);
    expect(sim.spawns.status(sim.ctx)).toMatchObject({ live: 5, pending: 0 });
  });
});
