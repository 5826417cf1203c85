import { InProcessWorldEventBus, type WorldEvent } from '../../rooms/worldEvents';
import { type GameServer, joinArea, startGameServer } from '../helpers/gameServer';

describe('the world event bus', () => {
  let game: GameServer;
  afterEach(async () => {
    await game?.shutdown();
  });

  it('publishes conversations, quest completions and trades once each to subscribers', async () => {
    const bus = new InProcessWorldEventBus();
    const all: WorldEvent[] = [];
    const trades: WorldEvent[] = [];
    bus.subscribe('*', (event) => all.push(event));
    const stop = bus.subscribe('trade.completed', (event) => trades.push(event));
    game = await startGameServer({ events: bus });
    const { room } = await joinArea(game, 'ann');
    await room.request('command', { line: 'talk elder' });
    await room.request('command', { line: 's' });
    await room.request('command', { line: 'buy bread' });
    stop();
    await room.request('command', { line: 'buy bread' });
    expect(all.filter((e) => e.type === 'npc.conversation')).toEqual([
      {
        type: 'npc.conversation',
        areaId: 'village',
        userId: 'ann',
        npc: 'village:elder',
        disposition: 'neutral',
      },
    ]);
    expect(trades).toEqual([
      {
        type: 'trade.completed',
        areaId: 'village',
        userId: 'ann',
        npc: 'village:innkeeper',
        item: 'village:bread',
        qty: 1,
        soft: 2,
        side: 'buy',
      },
    ]);
    expect(all.filter((e) => e.type === 'coins.changed')).toEqual([
      { type: 'coins.changed', areaId: 'village', userId: 'ann', delta: -2, reason: 'buy:village:bread' },
      { type: 'coins.changed', areaId: 'village', userId: 'ann', delta: -2, reason: 'buy:village:bread' },
    ]);
  });

  it('keeps publishing to the others when one subscriber throws', () => {
    const errors: unknown[] = [];
    const bus = new InProcessWorldEventBus((error) => errors.push(error));
    const seen: string[] = [];
    bus.subscribe('creature.killed', () => {
      throw new Error('memory is down');
    });
    bus.subscribe('creature.killed', (event) => seen.push(event.creature));
    bus.publish({ type: 'creature.killed', areaId: 'a', roomRef: 'a:b', creature: 'a:rat', userIds: ['u'] });
    expect(seen).toEqual(['a:rat']);
    expect(errors).toEqual([new Error('memory is down')]);
  });
});
