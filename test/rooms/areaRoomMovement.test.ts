import { matchMaker } from '@colyseus/core';
import { type SimContext, playersIn } from '../../rooms/rules/context';
import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

describe('AreaRoom: several SDK clients in one area', () => {
  let game: GameServer;

  beforeEach(async () => {
    game = await startGameServer();
  });

  afterEach(async () => {
    await game.shutdown();
  });

  it('shows each player the others arriving, leaving and moving in the synchronised state', async () => {
    const alice = await joinArea(game, 'alice');
    const bob = await joinArea(game, 'bob');
    game.tick();
    await alice.log.waitFor((e) => e.type === 'player.arrived' && e.text === 'Bob arrives.');

    const reply = await bob.room.request('move', { direction: 'east' });
    expect(reply).toEqual({ ok: true });
    game.tick();
    const left = await alice.log.waitFor((e) => e.type === 'player.left');
    expect(left.text).toBe('Bob leaves east.');
    const arrivedAt = await bob.log.waitFor(
      (e) => e.type === 'room.look' && (e.data.room as { ref: string }).ref === 'village:market',
    );
    expect(arrivedAt.text.split('\n')[0]).toBe('Market Row');

    // Players are synchronised per room: Bob, in the market now, has left the state of Alice, in the square.
    await waitForState(alice.room, (state) => !state.players.has('bob'));
    expect(alice.room.state.players.get('alice')?.roomRef).toBe('village:square');

    alice.room.send('say', { text: 'hello?' });
    await alice.log.waitFor((e) => e.type === 'chat.said' && e.text === 'You say: "hello?"');
    await bob.room.request('move', { direction: 'west' });
    bob.room.send('say', { text: 'back again' });
    await bob.log.waitFor((e) => e.text === 'You say: "back again"');
    game.tick();
    const heard = await alice.log.waitFor(
      (e) => e.type === 'chat.said' && e.text === 'Bob says: "back again"',
    );
    expect(heard.channel).toBe('chat');
    await waitForState(alice.room, (state) => state.players.get('bob')?.roomRef === 'village:square');
  });

  it("finds who stands in a room through the room's index exactly as a scan of the area's players does", async () => {
    const names = ['ann', 'bob', 'cid', 'dot', 'eve'];
    const players = [];
    for (const name of names) players.push(await joinArea(game, name));
    const sim = (matchMaker.getLocalRoomById('area_village') as unknown as { sim: SimContext }).sim;
    const scanned = (roomRef: string) => playersIn({ ...sim, playersIn: undefined }, roomRef);
    const same = () => {
      for (const roomRef of ['village:square', 'village:market']) {
        expect(playersIn(sim, roomRef).map((p) => p.userId)).toEqual(scanned(roomRef).map((p) => p.userId));
      }
    };
    same();
    await players[1].room.request('move', { direction: 'east' });
    await players[3].room.request('move', { direction: 'east' });
    await players[0].room.request('move', { direction: 'east' });
    same();
    expect(scanned('village:market').map((p) => p.userId)).toEqual(['ann', 'bob', 'dot']);
    await players[1].room.request('move', { direction: 'west' });
    await players[2].room.leave();
    await waitForState(players[0].room, (state) => !state.players.has('cid'));
    same();
    const back = await joinArea(game, 'cid');
    same();
    await back.room.request('move', { direction: 'east' });
    same();
    expect(playersIn(sim, 'village:market').map((p) => p.userId)).toEqual(['ann', 'dot', 'cid']);
  });
});
