import { type Client, matchMaker } from '@colyseus/core';
import type { AreaRoom } from '../../rooms/AreaRoom';
import { EVENTS_MESSAGE } from '../../rooms/eventDelivery';
import { holdWrites, holdWritesThisTurn } from '../../rooms/socketWrites';
import type { MudEvent } from '../../rooms/systems/narration';
import { type GameServer, joinArea, startGameServer, waitForState } from '../helpers/gameServer';

/** A client whose transport socket only counts corks (what `holdWrites` touches). */
function buildCorkCountingClient() {
  const socket = { corked: 0, cork: () => (socket.corked += 1), uncork: () => (socket.corked -= 1) };
  return { socket, client: { ref: { _socket: socket } } as unknown as Client };
}

/**
 * The server-side TCP socket of a player's SDK client, watched: each write reaching it (one system call) is
 * recorded as the number of buffers it carried.
 */
function watchWrites(userId: string) {
  const room = matchMaker.getLocalRoomById('area_village') as AreaRoom;
  const client = room.clients.find((c) => (c.userData as { userId: string }).userId === userId)!;
  type Socket = { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
  const socket = (client as unknown as { ref: { _socket: Socket } }).ref._socket;
  const writes: number[] = [];
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (...args) => (writes.push(1), write(...args));
  socket._writev = (chunks, ...rest) => (writes.push((chunks as unknown[]).length), writev(chunks, ...rest));
  return { room, writes };
}

describe('holdWrites', () => {
  it('corks every client socket until released, and skips clients without one', () => {
    const a = buildCorkCountingClient();
    const b = buildCorkCountingClient();
    const release = holdWrites([a.client, { ref: {} } as unknown as Client, b.client]);
    expect([a.socket.corked, b.socket.corked]).toEqual([1, 1]);
    release();
    expect([a.socket.corked, b.socket.corked]).toEqual([0, 0]);
  });

  it('holdWritesThisTurn releases only after the promise callbacks of the current turn', async () => {
    const { socket, client } = buildCorkCountingClient();
    holdWritesThisTurn([client]);
    await Promise.resolve();
    await Promise.resolve();
    expect(socket.corked).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(socket.corked).toBe(0);
  });
});

describe('AreaRoom: one socket write per client per tick', () => {
  let game: GameServer;

  beforeEach(async () => {
    game = await startGameServer();
  });

  afterEach(async () => {
    await game.shutdown();
  });

  it("sends a bystander the tick's events in order as one message, with the state patch, in one write", async () => {
    const ann = await joinArea(game, 'ann');
    const bob = await joinArea(game, 'bob');
    const carl = await joinArea(game, 'carl');
    await carl.room.request('move', { direction: 'east' });
    game.tick();
    await bob.log.waitFor((e) => e.text === 'Carl leaves east.');
    const batches: MudEvent[][] = [];
    bob.room.onMessage(EVENTS_MESSAGE, (events: MudEvent[]) => batches.push(events));

    await ann.room.request('say', { text: 'one' });
    await ann.room.request('emote', { text: 'waves.' });
    await ann.room.request('say', { text: 'two' });
    const bobSocket = watchWrites('bob');
    bobSocket.room.state.players.get('ann')!.health -= 1;
    const health = bobSocket.room.state.players.get('ann')!.health;
    game.tick();
    // Two frames (events, patch) of a header and a body each: four buffers, one write.
    expect(bobSocket.writes).toEqual([4]);

    await waitForState(bob.room, (state) => state.players.get('ann')?.health === health);
    await bob.log.waitFor((e) => e.text === 'Ann says: "two"');
    expect(batches.map((batch) => batch.map((e) => e.text))).toEqual([
      ['Ann says: "one"', 'Ann waves.', 'Ann says: "two"'],
    ]);
    // Carl, in the market, heard none of it; Ann read her own words at once, before each reply.
    expect(carl.log.texts().filter((text) => text.startsWith('Ann'))).toEqual([]);
    expect(ann.log.texts().filter((text) => text.startsWith('You say'))).toEqual([
      'You say: "one"',
      'You say: "two"',
    ]);
  });

  it("sends the actor's events and the action's reply in one write", async () => {
    const ann = await joinArea(game, 'ann');
    game.tick(); // sends what joining left to patch, so only the action writes from here
    const annSocket = watchWrites('ann');
    const from = ann.log.events.length;
    await ann.room.request('look');
    expect(ann.log.events.slice(from).map((e) => e.type)).toEqual(['room.look']);
    expect(annSocket.writes).toEqual([4]);
  });
});
