import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { craft } from '../../rooms/rules/crafting';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { buildSim } from './fixtures/simContext';

describe('crafting', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('consumes the ingredients and produces the item in one step', () => {
    const sim = buildSim(world, 'village');
    const player = sim.addPlayer('ann', { roomRef: 'village:square' });
    player.inventory.set('village:cloth', 3);
    craft(sim.ctx, 'ann', 'bandage');
    expect(Object.fromEntries(player.inventory.entries())).toEqual({
      'village:cloth': 1,
      'village:bandage': 1,
    });
    expect(player.skills.get('crafting')).toBe(1);
  });

  it('changes nothing when an ingredient is missing or the station is wrong', () => {
    const sim = buildSim(world, 'village');
    const player = sim.addPlayer('ann', { roomRef: 'village:square' });
    player.inventory.set('village:leather', 3);
    expect(() => craft(sim.ctx, 'ann', 'leather vest')).toThrow(
      new ActionRejectedError('STATION_REQUIRED', 'Lace a leather vest needs a workbench.'),
    );
    player.roomRef = 'village:workshop';
    expect(() => craft(sim.ctx, 'ann', 'leather vest')).toThrow(
      new ActionRejectedError('MISSING_INGREDIENTS', 'You need 1 more coil of rope.'),
    );
    expect(Object.fromEntries(player.inventory.entries())).toEqual({ 'village:leather': 3 });
    expect(sim.events).toEqual([]);
  });
});
