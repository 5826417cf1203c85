import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import {
  addBond,
  assertPurchasable,
  bondCompanion,
  bondLevelFor,
  companionReaction,
} from '../../rooms/rules/companions';
import { CompanionNotPurchasableError } from '../../rooms/rules/errors';
import { give } from '../../rooms/rules/items';
import { buy } from '../../rooms/rules/merchants';
import { buildSim } from './fixtures/simContext';

describe('companions', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('bond levels rise 1..5 with shared events', () => {
    expect([0, 4, 5, 12, 21, 22, 35, 100].map(bondLevelFor)).toEqual([1, 1, 2, 3, 3, 4, 5, 5]);
    const sim = buildSim(world, 'forest');
    const player = sim.addPlayer('ann');
    bondCompanion(sim.ctx, player, world.companions.get('forest:pip')!);
    addBond(sim.ctx, player, 5);
    expect([player.companion.name, player.companion.bond, player.companion.presence]).toEqual([
      'Pip',
      2,
      'Progressive',
    ]);
    expect(sim.events.map((e) => e.type)).toEqual(['companion.bonded', 'companion.bond']);
  });

  it('presence decides when the companion speaks and acts', () => {
    expect(companionReaction('Always', 1, 'greet')).toEqual({ speak: true, act: false });
    expect(companionReaction('Always', 1, 'combat')).toEqual({ speak: true, act: true });
    expect(companionReaction('On Demand', 5, 'combat')).toEqual({ speak: false, act: false });
    expect(companionReaction('On Demand', 1, 'asked')).toEqual({ speak: true, act: true });
    expect(companionReaction('Subtle', 1, 'combat')).toEqual({ speak: false, act: true });
    expect(companionReaction('Subtle', 1, 'lowHealth')).toEqual({ speak: true, act: false });
    expect(companionReaction('Progressive', 1, 'lowHealth')).toEqual({ speak: false, act: false });
    expect(companionReaction('Progressive', 2, 'lowHealth')).toEqual({ speak: true, act: false });
    expect(companionReaction('Progressive', 3, 'combat')).toEqual({ speak: false, act: true });
    expect(companionReaction('Progressive', 4, 'combat')).toEqual({ speak: true, act: true });
    expect(companionReaction('Silent', 5, 'asked')).toEqual({ speak: false, act: false });
  });

  it('can never be bought, sold or given away', () => {
    const sim = buildSim(world, 'forest');
    const player = sim.addPlayer('ann', { roomRef: 'forest:hermit_hut', soft: 500 });
    bondCompanion(sim.ctx, player, world.companions.get('forest:pip')!);
    const error = new CompanionNotPurchasableError('Pip');
    expect(error.code).toBe('COMPANION_NOT_PURCHASABLE');
    expect(error.status).toBe(409);
    expect(() => buy(sim.ctx, 'ann', 'pip')).toThrow(error);
    expect(() => buy(sim.ctx, 'ann', 'forest:pip')).toThrow(error);
    expect(() => give(sim.ctx, 'ann', 'Pip', 'hermit')).toThrow(error);
    expect(() => assertPurchasable(world, 'caves:ember')).toThrow(new CompanionNotPurchasableError('Ember'));
    expect(() => assertPurchasable(world, 'forest:herb')).not.toThrow();
    expect(player.soft).toBe(500);
    expect(player.companion.ref).toBe('forest:pip');
  });
});
