import type { AreaState } from '../../rooms/state/AreaState';
import { EventLog, type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';
import { InMemoryPlayerStore } from '../../rooms/persistence';
import { AppError } from '../../platform/errors';

const walkToGate = ['east', 'east'] as const;

describe('area handoff, the action gateway and persistence', () => {
  let game: GameServer;

  afterEach(async () => {
    await game?.shutdown();
  });

  it('hands a player to the next area room with a seat reservation, keeping their inventory', async () => {
    game = await startGameServer();
    const { client, room, log } = await joinArea(game, 'ann');
    await room.request('take', { item: 'stick' });
    for (const direction of walkToGate) await room.request('move', { direction });
    await room.request('move', { direction: 'east' });
    const handoff = await log.waitFor((e) => e.type === 'area.handoff');
    expect(handoff.text).toBe('You travel to The Whisperwood...');
    const forest = await client.consumeSeatReservation(handoff.data.reservation as never);
    game.track(forest);
    const forestLog = new EventLog(forest);
    await room.leave();
    const look = await forestLog.waitFor((e) => e.type === 'room.look');
    expect(look.text.split('\n')[0]).toBe('Forest Edge');
    expect(forest.roomId).toBe('area_forest');
    await waitForState(
      forest,
      (state) => (state as AreaState).players.get('ann')?.inventory.get('village:stick') === 2,
    );
    expect((await game.store.load('ann'))?.roomRef).toBe('forest:edge');
  });

  it('lets a REST-style gateway player and an SDK player share one room', async () => {
    game = await startGameServer();
    const { room, log } = await joinArea(game, 'ann');
    const bob = { userId: 'bob', name: 'Bob' };
    const looked = await game.gateway.perform(bob, { action: 'look' });
    expect([looked.areaId, looked.roomRef, looked.events.map((e) => e.type)]).toEqual([
      'village',
      'village:square',
      ['room.look'],
    ]);
    game.tick();
    await log.waitFor((e) => e.text === 'Bob arrives.');

    const said = await game.gateway.perform(bob, { action: 'say', text: 'hi from REST' });
    expect(said.events.map((e) => e.text)).toEqual(['You say: "hi from REST"']);
    game.tick();
    await log.waitFor((e) => e.text === 'Bob says: "hi from REST"');

    room.send('say', { text: 'hello Bob' });
    await log.waitFor((e) => e.text === 'You say: "hello Bob"');
    // A refused action keeps the backlog for the next call: every event is delivered exactly once.
    await expect(game.gateway.perform(bob, { action: 'move', direction: 'up' })).rejects.toEqual(
      new AppError(409, 'NO_EXIT', 'Conflict', { detail: 'You cannot go up from here.' }),
    );
    const backlog = await game.gateway.perform(bob, { action: 'inventory' });
    expect(backlog.events.map((e) => e.text)).toEqual([
      'Ann says: "hello Bob"',
      'You carry: nothing.\nEquipped: nothing.\nHealth 30/30. Coins: 10. Gems: 0.',
    ]);
    const again = await game.gateway.perform(bob, { action: 'look' });
    expect(again.events.map((e) => e.type)).toEqual(['room.look']);
    await expect(game.gateway.perform(bob, { action: 'dance' })).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_ACTION',
    });

    const moved = await game.gateway.perform(bob, { action: 'move', direction: 'east' });
    expect(moved.roomRef).toBe('village:market');
    await waitForState(
      room,
      (state) => (state as AreaState).players.get('bob')?.roomRef === 'village:market',
    );

    const status = await game.gateway.spawnStatus();
    expect(status.map((s) => [s.areaId, s.running, s.live, s.pending])).toEqual([
      ['caves', false, 0, 0],
      ['forest', false, 0, 0],
      ['marsh', false, 0, 0],
      ['peaks', false, 0, 0],
      ['ruins', false, 0, 0],
      ['village', true, 5, 0],
    ]);
  });

  it('follows a gateway player across areas', async () => {
    game = await startGameServer();
    const bob = { userId: 'bob', name: 'Bob' };
    for (const direction of walkToGate) await game.gateway.perform(bob, { action: 'move', direction });
    const crossed = await game.gateway.perform(bob, { action: 'move', direction: 'east' });
    expect(crossed.handoff).toEqual({ areaId: 'forest', roomRef: 'forest:edge' });
    expect(crossed.roomRef).toBe('forest:edge');
    expect(crossed.events.at(-1)!.text.split('\n')[0]).toBe('Forest Edge');
    const next = await game.gateway.perform(bob, { action: 'take', item: 'moonleaf' });
    expect([next.areaId, next.events.map((e) => e.text)]).toEqual([
      'forest',
      ['You take sprig of moonleaf x2.'],
    ]);
  });

  it('keeps acknowledged progress across a restart', async () => {
    const store = new InMemoryPlayerStore();
    game = await startGameServer({ store });
    const { room } = await joinArea(game, 'ann');
    await room.request('take', { item: 'stick', qty: 1 });
    expect((await store.load('ann'))?.inventory).toEqual({ 'village:stick': 1 });
    await game.shutdown();

    game = await startGameServer({ store });
    const again = await joinArea(game, 'ann');
    await waitForState(
      again.room,
      (state) => (state as AreaState).players.get('ann')?.inventory.get('village:stick') === 1,
    );
    expect(again.room.state.players.get('ann')!.roomRef).toBe('village:square');
  });
});
