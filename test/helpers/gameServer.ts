import { Server, matchMaker } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Client, type Room } from '@colyseus/sdk';
import type { AddressInfo } from 'node:net';
import { ActionGateway } from '../../rooms/actionGateway';
import { areaRoomName } from '../../rooms/areaRoomOptions';
import { EVENTS_MESSAGE } from '../../rooms/eventDelivery';
import { type AreaRoomDefinition, defineAreaRooms } from '../../rooms/areaRooms';
import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { type Authenticate, InMemoryPlayerStore, type PlayerStore } from '../../rooms/persistence';
import type { MudEvent } from '../../rooms/text/narration';
import { ManualTicker } from '../../rooms/ticker';
import { ManualClock } from '../../platform/clock';

/** A Colyseus server running the area rooms in-process on a random port, with helpers to drive it. */
export interface GameServer {
  port: number;
  world: World;
  store: PlayerStore;
  gateway: ActionGateway;
  /** An SDK client authenticated as `userId` (tokens are `token-<userId>`; see `testAuthenticate`). */
  client(userId: string): Client;
  /** Steps every area room `ticks` ticks (the rooms run on a manual ticker unless `realTicks` was asked for). */
  tick(ticks?: number): void;
  /** Remembers a joined room so `shutdown` leaves it before the server closes (no 4002 warning after tests). */
  track(room: Room): void;
  shutdown(): Promise<void>;
}

/** Test authentication: `token-<userId>` is valid and names the player after the user id, capitalised. */
export const testAuthenticate: Authenticate = async (token) => {
  const match = /^token-([a-z0-9_-]+)$/.exec(token);
  if (!match) return null;
  return { userId: match[1], name: match[1].charAt(0).toUpperCase() + match[1].slice(1) };
};

let cachedWorld: Promise<World> | undefined;

/** The shipped world, loaded once per test file. */
export function shippedWorld(): Promise<World> {
  cachedWorld ??= loadWorld();
  return cachedWorld;
}

/**
 * Boots a server with the shipped world and a fixed seed. The rooms tick only when the test says so
 * (`game.tick(n)`, a `ManualTicker`; a `ManualClock` given as `clock` moves 10 ms per tick), so nothing
 * depends on wall-clock timing; `realTicks: true` runs them on their own 10 ms interval instead.
 */
export async function startGameServer(
  overrides: Partial<AreaRoomDefinition> & { realTicks?: boolean } = {},
): Promise<GameServer> {
  const { realTicks = false, ...options } = overrides;
  const world = options.world ?? (await shippedWorld());
  const store = options.store ?? new InMemoryPlayerStore();
  const ticker = realTicks
    ? undefined
    : new ManualTicker(options.clock instanceof ManualClock ? options.clock : undefined);
  const server = new Server({ transport: new WebSocketTransport(), gracefullyShutdown: false, greet: false });
  defineAreaRooms(server, {
    authenticate: testAuthenticate,
    seed: 7,
    tickMs: 10,
    aiEvery: 5,
    combatEvery: 5,
    regenEvery: 20,
    ticker,
    ...options,
    world,
    store,
  });
  await server.listen(0, '127.0.0.1');
  const port = (server.transport.server!.address() as AddressInfo).port;
  const joined = new Set<Room>();
  return {
    port,
    world,
    store,
    gateway: new ActionGateway({ world, store, presence: matchMaker.presence }),
    tick(ticks = 1) {
      if (!ticker) throw new Error('this game server runs on real ticks');
      ticker.advance(ticks);
    },
    client(userId: string) {
      const client = new Client(`ws://127.0.0.1:${port}`);
      client.auth.token = `token-${userId}`;
      return client;
    },
    track(room: Room) {
      joined.add(room);
      room.onLeave(() => joined.delete(room));
    },
    async shutdown() {
      await Promise.all([...joined].map((room) => room.leave(true).catch(() => undefined)));
      await server.gracefullyShutdown(false);
    },
  };
}

/** Collects the events of a joined room's `events` messages and lets a test wait for a specific one. */
export class EventLog {
  readonly events: MudEvent[] = [];
  private waiters: Array<{ match: (e: MudEvent) => boolean; resolve: (e: MudEvent) => void }> = [];

  constructor(room: Room) {
    room.onMessage(EVENTS_MESSAGE, (events: MudEvent[]) => events.forEach((event) => this.push(event)));
  }

  push(event: MudEvent): void {
    this.events.push(event);
    this.waiters = this.waiters.filter((w) => (w.match(event) ? (w.resolve(event), false) : true));
  }

  /** Resolves with the first event (already received or future) that matches; rejects after `timeoutMs`. */
  waitFor(match: (e: MudEvent) => boolean, timeoutMs = 5000, from = 0): Promise<MudEvent> {
    const seen = this.events.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${this.events.map((e) => e.text).join(' | ')}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }

  /** Waits for the next event of `type` after everything received so far. */
  next(type: string, timeoutMs = 5000): Promise<MudEvent> {
    return this.waitFor((e) => e.type === type, timeoutMs, this.events.length);
  }

  texts(): string[] {
    return this.events.map((e) => e.text);
  }
}

/** Joins `areaId` as `userId` and returns the room plus its event log (after the first room description). */
export async function joinArea(game: GameServer, userId: string, areaId = 'village') {
  const client = game.client(userId);
  const room = await client.joinOrCreate(areaRoomName(areaId));
  game.track(room);
  const log = new EventLog(room);
  await log.waitFor((e) => e.type === 'room.look');
  return { client, room, log };
}

/** Resolves once `predicate` holds for the room's synchronised state (checked on every state change). */
export function waitForState<S>(
  room: Room<unknown, S>,
  predicate: (state: S) => boolean,
  timeoutMs = 5000,
): Promise<void> {
  if (predicate(room.state)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('state never matched')), timeoutMs);
    const listener = (state: S) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      room.onStateChange.remove(listener);
      resolve();
    };
    room.onStateChange(listener);
  });
}
