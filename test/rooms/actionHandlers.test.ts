import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { type ActionTurn, runAction } from '../../rooms/commands/actions';
import type { RoomMarket } from '../../rooms/rules/marketTrades';
import { buildSim } from './fixtures/simContext';

describe('the action handler map', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('runs a typed line as the action it names, once, and says which action ran', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' }).inventory.set('village:stick', 2);
    const turn: ActionTurn = {};
    runAction(sim.ctx, 'ann', { action: 'command', line: 'give 2 stick to elder' }, turn);
    expect(turn.ran).toEqual({ action: 'give', item: 'stick', qty: 2, to: 'elder' });
  });

  it('refuses a trade at once while the market is closed', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:market' });
    expect(() => runAction(sim.ctx, 'ann', { action: 'trade', op: 'mine' })).toThrow(
      expect.objectContaining({ code: 'MARKET_UNAVAILABLE' }),
    );
  });

  it('awaits the market for a trade, then shows the broker’s answer', async () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:market' });
    const asked: unknown[] = [];
    const market: RoomMarket = {
      trade: (userId, action) => {
        asked.push({ userId, action });
        return Promise.resolve({
          type: 'market.listings',
          broker: { name: 'Odo' },
          heading: 'in your name',
          listings: [],
        });
      },
    };
    sim.ctx.market = () => market;
    const running = runAction(sim.ctx, 'ann', { action: 'command', line: 'trade mine' });
    expect(running).toBeInstanceOf(Promise);
    expect(sim.events).toEqual([]);
    await running;
    expect(asked).toEqual([{ userId: 'ann', action: { op: 'mine' } }]);
    expect(sim.drain()).toEqual([
      {
        type: 'market.listings',
        broker: { name: 'Odo' },
        heading: 'in your name',
        listings: [],
        to: { userId: 'ann' },
      },
    ]);
  });
});
