import { type Client, matchMaker } from '@colyseus/core';
import type { AreaRoom } from '../../rooms/AreaRoom';
import { EVENTS_MESSAGE, EventDelivery, type PlayerSession } from '../../rooms/eventDelivery';
import { holdWrites, holdWritesThisTurn } from '../../rooms/socketWrites';
import type { MudEvent } from '../../rooms/text/narration';
import { PlayerState } from '../../rooms/state/PlayerState';
import { unpack } from 'msgpackr';
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

/** A hosted player standing in `roomRef` with one socket that records the messages sent to it. */
function buildSession(userId: string, roomRef: string) {
  const sent: Buffer[] = [];
  const client = { enqueueRaw: (message: Buffer) => sent.push(message) } as unknown as Client;
  const session = {
    identity: { userId, name: userId },
    state: { roomRef },
    clients: new Set([client]),
    outbox: [],
    remote: false,
    inbox: [],
  } as unknown as PlayerSession;
  return { session, sent };
}

describe('EventDelivery.flushAll', () => {
  it('builds one message for the bystanders who witnessed the same lines and shares its bytes', () => {
    const players = ['ann', 'bob', 'carl', 'dave'].map((id) =>
      buildSession(id, id === 'dave' ? 'village:market' : 'village:square'),
    );
    const delivery = new EventDelivery(
      new Map(players.map((p) => [p.session.identity.userId, p.session])),
      () => undefined,
    );
    const ann = { name: 'Ann', userId: 'ann' };
    delivery.deliver({ type: 'chat.said', actor: ann, text: 'hi', to: { roomRef: 'village:square' } });
    delivery.deliver({ type: 'chat.said', actor: ann, text: 'all', to: { roomRef: 'village:square' } });
    delivery.flushAll();
    const [annSent, bobSent, carlSent, daveSent] = players.map((p) => p.sent);
    expect([annSent.length, bobSent.length, carlSent.length, daveSent.length]).toEqual([1, 1, 1, 0]);
    expect(bobSent[0]).toBe(carlSent[0]);
    expect(annSent[0]).not.toBe(bobSent[0]);
    expect(players.every((p) => p.session.outbox.length === 0)).toBe(true);
  });
});

describe('EventDelivery: events for a room', () => {
  it('reach whoever stands there now, after any move, join or leave', () => {
    const players = ['ann', 'bob', 'carl'].map((id) => {
      const built = buildSession(id, 'village:square');
      built.session.state = new PlayerState({ userId: id, name: id, roomRef: 'village:square' });
      return built;
    });
    const [, bob, carl] = players;
    const sessions = new Map(players.map((p) => [p.session.identity.userId, p.session]));
    let changes = 0;
    const delivery = new EventDelivery(
      sessions,
      () => undefined,
      () => changes,
    );
    const texts = (p: (typeof players)[number]) =>
      p.session.outbox.splice(0).map((line) => (unpack(line) as MudEvent).text);
    const say = (text: string, roomRef: string) =>
      delivery.deliver({ type: 'chat.said', actor: { name: 'Dee', userId: 'dee' }, text, to: { roomRef } });
    say('one', 'village:square');
    expect(players.map(texts)).toEqual([['Dee says: "one"'], ['Dee says: "one"'], ['Dee says: "one"']]);
    bob.session.state.roomRef = 'village:market';
    say('two', 'village:square');
    say('three', 'village:market');
    expect(players.map(texts)).toEqual([['Dee says: "two"'], ['Dee says: "three"'], ['Dee says: "two"']]);
    // Carl leaves the area and comes back; a new player arrives in the market.
    sessions.delete('carl');
    changes += 1;
    say('four', 'village:square');
    sessions.set('carl', carl.session);
    carl.session.state.roomRef = 'village:market';
    changes += 1;
    say('five', 'village:market');
    expect(players.map(texts)).toEqual([['Dee says: "four"'], ['Dee says: "five"'], ['Dee says: "five"']]);
    // Who stands in a room, in the table's order (the order of AreaState.players), whoever arrived first.
    bob.session.state.roomRef = 'village:square';
    carl.session.state.roomRef = 'village:square';
    expect(delivery.playersIn('village:square').map((p) => p.userId)).toEqual(['ann', 'bob', 'carl']);
    expect(delivery.playersIn('village:market')).toEqual([]);
  });
});

describe('EventDelivery: a join or leave told to the index', () => {
  it('is taken in without a rebuild, and rooms still find exactly who stands there, in order', () => {
    const built = (id: string, roomRef: string) => {
      const player = buildSession(id, roomRef);
      player.session.state = new PlayerState({ userId: id, name: id, roomRef });
      return player.session;
    };
    const [ann, bob] = [built('ann', 'village:square'), built('bob', 'village:square')];
    const sessions = new Map([
      ['ann', ann],
      ['bob', bob],
    ]);
    let changes = 0;
    const delivery = new EventDelivery(
      sessions,
      () => undefined,
      () => changes,
    );
    const inSquare = () => delivery.playersIn('village:square').map((p) => p.userId);
    expect(inSquare()).toEqual(['ann', 'bob']);
    const rebuild = jest.spyOn(delivery as unknown as { index: () => void }, 'index');
    const cid = built('cid', 'village:market');
    sessions.set('cid', cid);
    changes += 1;
    delivery.changed(cid, true);
    sessions.delete('ann');
    changes += 1;
    delivery.changed(ann, false);
    cid.state.roomRef = 'village:square';
    ann.state.roomRef = 'village:square';
    expect(inSquare()).toEqual(['bob', 'cid']);
    sessions.set('ann', ann);
    changes += 1;
    delivery.changed(ann, true);
    expect(inSquare()).toEqual(['bob', 'cid', 'ann']);
    expect(rebuild).not.toHaveBeenCalled();
    // A change the index missed (membership moved by more than one) makes the next lookup rebuild it.
    changes += 2;
    expect(inSquare()).toEqual(['bob', 'cid', 'ann']);
    expect(rebuild).toHaveBeenCalledTimes(1);
  });
});

describe('EventDelivery: what gateway players witness', () => {
  it('is kept in their inbox at once and published on their channel with the tick, in order', () => {
    const eve = buildSession('eve', 'village:square');
    eve.session.remote = true;
    eve.session.clients.clear();
    const bob = buildSession('bob', 'village:square');
    const published: Array<[string, string]> = [];
    const delivery = new EventDelivery(
      new Map([
        ['eve', eve.session],
        ['bob', bob.session],
      ]),
      (userId, event) => published.push([userId, event.text]),
    );
    const bobActor = { name: 'Bob', userId: 'bob' };
    delivery.deliver({ type: 'chat.said', actor: bobActor, text: 'one', to: { roomRef: 'village:square' } });
    delivery.deliver({ type: 'chat.said', actor: bobActor, text: 'two', to: { roomRef: 'village:square' } });
    expect(eve.session.inbox.map((event) => event.text)).toEqual(['Bob says: "one"', 'Bob says: "two"']);
    expect(published).toEqual([]);
    delivery.flushAll();
    expect(published).toEqual([
      ['eve', 'Bob says: "one"'],
      ['eve', 'Bob says: "two"'],
    ]);
    delivery.flushAll();
    expect(published).toHaveLength(2);
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
    const dave = await joinArea(game, 'dave');
    await carl.room.request('move', { direction: 'east' });
    game.tick();
    await bob.log.waitFor((e) => e.text === 'Carl leaves east.');
    await dave.log.waitFor((e) => e.text === 'Carl leaves east.');
    const batches: MudEvent[][] = [];
    bob.room.onMessage(EVENTS_MESSAGE, (events: MudEvent[]) => batches.push(events));
    const daveBatches: MudEvent[][] = [];
    dave.room.onMessage(EVENTS_MESSAGE, (events: MudEvent[]) => daveBatches.push(events));

    await ann.room.request('say', { text: 'one' });
    await ann.room.request('whisper', { to: 'Dave', text: 'psst' });
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
    // Dave's message differs from the one the other bystanders share: the whisper is his alone, in its place.
    await dave.log.waitFor((e) => e.text === 'Ann says: "two"');
    expect(daveBatches.map((batch) => batch.map((e) => e.text))).toEqual([
      ['Ann says: "one"', 'Ann whispers to you: "psst"', 'Ann waves.', 'Ann says: "two"'],
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

describe('AreaRoom: a crowded area sends every second tick', () => {
  let game: GameServer | undefined;

  afterEach(async () => {
    await game?.shutdown();
    game = undefined;
  });

  /** Ann speaks before each of four ticks; answers how many of the ticks wrote to Bob, and what Bob heard. */
  async function fourTicks(crowdedClients: number) {
    game = await startGameServer({ crowdedClients });
    const ann = await joinArea(game, 'ann');
    const bob = await joinArea(game, 'bob');
    await joinArea(game, 'carl');
    game.tick(2); // what joining left to send
    const bobSocket = watchWrites('bob');
    const sent: number[] = [];
    for (const line of ['one', 'two', 'three', 'four']) {
      await ann.room.request('say', { text: line });
      const before = bobSocket.writes.length;
      game.tick();
      sent.push(bobSocket.writes.length - before);
    }
    game.tick();
    await bob.log.waitFor((e) => e.text === 'Ann says: "four"');
    const heard = bob.log.texts().filter((text) => text.startsWith('Ann says'));
    return { writingTicks: sent.filter((writes) => writes > 0).length, heard };
  }

  const everyLine = ['Ann says: "one"', 'Ann says: "two"', 'Ann says: "three"', 'Ann says: "four"'];

  it('from `crowdedClients` clients on, the events wait one tick and nothing is lost or reordered', async () => {
    expect(await fourTicks(3)).toEqual({ writingTicks: 2, heard: everyLine });
  });

  it('below it (or with 0, never crowded) every tick sends', async () => {
    expect(await fourTicks(0)).toEqual({ writingTicks: 4, heard: everyLine });
  });
});
