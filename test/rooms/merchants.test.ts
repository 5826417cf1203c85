import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { ActionRejectedError } from '../../rooms/rules/errors';
import { buy, restock, sell, stockOf } from '../../rooms/rules/merchants';
import { narrate } from '../../rooms/text/narration';
import { buildSim } from './fixtures/simContext';

describe('merchants', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('sells from a stock that runs out and refills one unit per restock period', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:smithy', soft: 100 });
    const smith = world.npcs.get('village:smith')!;
    const cap = smith.sells.find((s) => s.item === 'village:leather_cap')!;
    expect(cap.stock).toBeDefined();
    for (let i = 0; i < cap.stock!; i++) buy(sim.ctx, 'ann', 'leather cap');
    expect(stockOf(sim.ctx, smith, 'village:leather_cap')).toBe(0);
    expect(() => buy(sim.ctx, 'ann', 'leather cap')).toThrow(
      new ActionRejectedError('OUT_OF_STOCK', 'Brandal the smith has no leather cap left; come back later.'),
    );
    for (let step = 0; step < cap.restock; step++) restock(sim.ctx);
    expect(stockOf(sim.ctx, smith, 'village:leather_cap')).toBe(1);
    expect(ann.inventory.get('village:leather_cap')).toBe(cap.stock);
  });

  it('buys what the merchant trades in at the item value, and refuses the rest', () => {
    const sim = buildSim(world, 'village');
    const ann = sim.addPlayer('ann', { roomRef: 'village:smithy', soft: 0 });
    ann.inventory.set('caves:iron_ore', 3);
    ann.inventory.set('village:bread', 1);
    sim.drain();
    sell(sim.ctx, 'ann', 'iron ore', 2);
    const value = world.items.get('caves:iron_ore')!.value;
    expect([ann.soft, ann.inventory.get('caves:iron_ore')]).toEqual([2 * value, 1]);
    expect(
      narrate(
        sim.drain().find((e) => e.type === 'item.sold')!,
        'ann',
      ).text,
    ).toBe(`You sell lump of iron ore x2 to Brandal the smith for ${2 * value} coins.`);
    expect(() => sell(sim.ctx, 'ann', 'bread')).toThrow(
      new ActionRejectedError('NPC_WONT_BUY', 'Nobody here will buy loaf of bread.'),
    );
  });
});
