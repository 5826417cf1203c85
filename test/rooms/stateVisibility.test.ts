import { type Client, matchMaker } from '@colyseus/core';
import type { StateView } from '@colyseus/schema';
import type { AreaRoom } from '../../rooms/AreaRoom';
import type { AreaState } from '../../rooms/state/AreaState';
import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

const roomsOf = (map: AreaState['creatures'] | AreaState['items']) =>
  [...map.values()].map((thing) => thing.roomRef);

describe('per-client state visibility (StateView)', () => {
  let game: GameServer;
  beforeEach(async () => {
    game = await startGameServer();
  });
  afterEach(async () => {
    await game.shutdown();
  });

  it("syncs only the creatures and items of the player's room, and private fields only to their owner", async () => {
    const ann = await joinArea(game, 'ann');
    await waitForState(ann.room, (s) => s.creatures.size === 2 && s.items.size > 0);
    expect(new Set(roomsOf(ann.room.state.creatures))).toEqual(new Set(['village:square']));
    expect(new Set(roomsOf(ann.room.state.items))).toEqual(new Set(['village:square']));
    expect([...ann.room.state.creatures.values()].map((c) => [c.name, c.health])).toEqual([
      ['speckled hen', 4],
      ['speckled hen', 4],
    ]);

    const bob = await joinArea(game, 'bob');
    await bob.room.request('move', { direction: 'east' });
    await waitForState(bob.room, (s) => s.players.get('bob')?.roomRef === 'village:market');
    await waitForState(bob.room, (s) => s.creatures.size === 0 && s.items.size === 2);
    expect(roomsOf(bob.room.state.items)).toEqual(['village:market', 'village:market']);

    await ann.room.request('take', { item: 'stick', qty: 1 });
    await waitForState(ann.room, (s) => s.players.get('ann')?.inventory.get('village:stick') === 1);

    await bob.room.request('move', { direction: 'west' });
    await waitForState(bob.room, (s) => s.creatures.size === 2);
    expect(new Set(roomsOf(bob.room.state.items))).toEqual(new Set(['village:square']));
    await waitForState(bob.room, (s) => s.players.get('ann')?.roomRef === 'village:square');
    const annSeenByBob = bob.room.state.players.get('ann')!;
    expect([annSeenByBob.name, annSeenByBob.health, annSeenByBob.inventory?.size ?? 0]).toEqual([
      'Ann',
      30,
      0,
    ]);
  });

  it("sends a player's changing fields only to the players in the same room", async () => {
    const ann = await joinArea(game, 'ann');
    const cid = await joinArea(game, 'cid');
    const bob = await joinArea(game, 'bob');
    await waitForState(bob.room, (s) => s.players.has('ann') && s.players.has('cid'));
    await bob.room.request('move', { direction: 'east' });
    // Bob left the square: Ann and Cid leave his state at once, and he leaves theirs with the next tick.
    await waitForState(bob.room, (s) => s.players.size === 1 && s.players.has('bob'));
    game.tick();
    await waitForState(ann.room, (s) => !s.players.has('bob'));

    let bobPatches = 0;
    bob.room.onStateChange(() => (bobPatches += 1));
    await ann.room.request('rest', {});
    // Cid, in the square, sees Ann rest; Bob, next door, receives nothing of it (not even an empty patch).
    await waitForState(cid.room, (s) => s.players.get('ann')?.status === 'resting');
    await bob.room.request('look', {});
    expect(bob.room.state.players.has('ann')).toBe(false);
    expect(bobPatches).toBe(0);

    // Coming back, Bob gets Ann as she is now.
    await bob.room.request('move', { direction: 'west' });
    await waitForState(bob.room, (s) => s.players.get('ann')?.status === 'resting');
    expect(bob.room.state.players.get('ann')?.xp ?? 0).toBe(0);
  });

  it('encodes only the views that may see a change, and every view that does', async () => {
    const ann = await joinArea(game, 'ann');
    const cid = await joinArea(game, 'cid');
    const bob = await joinArea(game, 'bob');
    await bob.room.request('move', { direction: 'east' });
    await waitForState(bob.room, (s) => s.players.size === 1);
    game.tick();
    await waitForState(ann.room, (s) => !s.players.has('bob'));
    await waitForState(cid.room, (s) => [...s.items.values()].some((item) => item.ref === 'village:stick'));
    const sticks = [...cid.room.state.items.values()].find((item) => item.ref === 'village:stick')!;
    expect(sticks.qty).toBe(2);

    // Which players' views the server encodes from now on.
    const room = matchMaker.getLocalRoomById('area_village') as AreaRoom;
    const viewOf = (userId: string) =>
      room.clients.find((c: Client) => (c.userData as { userId: string }).userId === userId)!.view!;
    const owners = new Map([ann, bob, cid].map((p, i) => [viewOf(['ann', 'bob', 'cid'][i]), p]));
    const encoder = (
      room as unknown as { _serializer: { encoder: { encodeView(view: StateView): unknown } } }
    )._serializer.encoder;
    const encodeView = encoder.encodeView.bind(encoder) as (...args: unknown[]) => unknown;
    const encoded: string[] = [];
    encoder.encodeView = ((view: StateView, ...rest: unknown[]) => {
      encoded.push(owners.get(view) === ann ? 'ann' : owners.get(view) === bob ? 'bob' : 'cid');
      return encodeView(view, ...rest);
    }) as typeof encoder.encodeView;
    let bobPatches = 0;
    bob.room.onStateChange(() => (bobPatches += 1));

    // A change of a floor item's quantity (a schema field) and of Ann's inventory (a private map of hers).
    await ann.room.request('take', { item: 'stick', qty: 1 });
    await waitForState(ann.room, (s) => s.players.get('ann')?.inventory.get('village:stick') === 1);
    await waitForState(cid.room, (s) => [...s.items.values()].some((item) => item.qty === 1));
    // The last stick leaves the square's floor: an entry deleted from the items map.
    await ann.room.request('take', { item: 'stick', qty: 1 });
    await waitForState(ann.room, (s) => s.players.get('ann')?.inventory.get('village:stick') === 2);
    await waitForState(cid.room, (s) => ![...s.items.values()].some((item) => item.ref === 'village:stick'));
    await bob.room.request('look', {});

    expect(bobPatches).toBe(0);
    expect(encoded).not.toContain('bob');
    expect(new Set(encoded)).toEqual(new Set(['ann', 'cid']));
  });
});
