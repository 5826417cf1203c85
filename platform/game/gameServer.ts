import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { LocalDriver, LocalPresence, matchMaker, Server, type Presence, type Room } from '@colyseus/core';
import { setTransport } from '@colyseus/core/Transport';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import type { Logger } from 'pino';
import { ConfigError } from '../config';

/** A room type to define on the game server. */
export interface RoomDefinition {
  name: string;
  // Colyseus room classes take varied constructor options; the matchmaker only needs the class.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  room: new (...args: any[]) => Room;
  options?: Record<string, unknown>;
  /**
   * Checks a session token at matchmaking, before a seat is reserved (null or false: 401); the room's own `onAuth`
   * still checks it again when the client joins. Without it the room type is open to anonymous callers.
   */
  authenticate?: (token: string) => Promise<unknown>;
}

export interface GameServerOptions {
  httpServer: HttpServer;
  logger: Logger;
  /** When set, presence and the room registry live in Redis so several game processes share one world. */
  redisUrl?: string;
  rooms: RoomDefinition[];
  /** Upgrade requests for which this returns false are left to other WebSocket handlers (default: all taken). */
  acceptsUpgrade?: (req: IncomingMessage) => boolean;
  /** GAME_PUBLIC_ADDRESS: host[:port][/path] where SDK clients reach this process's rooms (seat reservations). */
  publicAddress?: string;
  /** GAME_HOSTS_ROOMS: room type names created on this process whenever it is up (default: none). */
  hostsRooms?: string[];
}

/** Presence hash of pinned room types: room type name → the id of the process that hosts it (GAME_HOSTS_ROOMS). */
export const ROOM_PINS_KEY = 'game:room-pins';

/**
 * Where the matchmaker creates a room: on the process that pinned its type (GAME_HOSTS_ROOMS) while that process is
 * listed, else on the process with the fewest rooms (Colyseus's own rule). Pinning places areas by the operator's
 * plan: the fewest-rooms rule counts rooms, not players, and decides on counts that lag when many rooms are created at
 * once (a crowd's first joins put all six areas on one process).
 */
export function placeRooms(
  presence: Presence,
  listProcesses: () => Promise<Array<{ processId: string; roomCount: number }>> = () =>
    matchMaker.stats.fetchAll(),
) {
  return async (roomName: string): Promise<string> => {
    const processes = await listProcesses();
    const pinned = await presence.hget(ROOM_PINS_KEY, roomName);
    if (pinned && processes.some((process) => process.processId === pinned)) return pinned;
    const fewest = [...processes].sort((a, b) => a.roomCount - b.roomCount)[0];
    return fewest?.processId ?? matchMaker.processId;
  };
}

/**
 * The Colyseus side of the process: WebSocket transport on the shared HTTP server, matchmaker, room types. Colyseus's
 * matchmaker is a module-level singleton, so a process hosts at most one GameServer at a time.
 * Matchmaking HTTP routes are the platform's own (`matchmakingRouter` in the Express app), so authentication, CORS
 * and problem JSON are the same as on every other route.
 */
export class GameServer {
  private constructor(
    readonly server: Server,
    private readonly presence: Presence,
    private readonly pins: string[],
  ) {}

  static async start(options: GameServerOptions): Promise<GameServer> {
    // A pin naming a room type this server does not define would place nothing: a typo, refused at start.
    const defined = options.rooms.map((room) => room.name);
    const unknown = (options.hostsRooms ?? []).filter((name) => !defined.includes(name));
    if (unknown.length > 0)
      throw new ConfigError([
        {
          variable: 'GAME_HOSTS_ROOMS',
          expected: `room types this server defines (${defined.join(', ') || 'none'})`,
          received: unknown.join(','),
        },
      ]);
    const log = options.logger.child({ component: 'game' });
    const presence = options.redisUrl ? new RedisPresence(options.redisUrl) : new LocalPresence();
    const driver = options.redisUrl ? new RedisDriver(options.redisUrl) : new LocalDriver();
    const transport = new WebSocketTransport({ noServer: true, pingInterval: 3_000, pingMaxRetries: 2 });
    transport.attachToServer(options.httpServer, { filter: options.acceptsUpgrade });
    const server = new Server({
      transport,
      presence,
      driver,
      gracefullyShutdown: false,
      greet: false,
      logger: log,
      // Seat reservations for this process's rooms name it, so SDK clients connect to the process hosting the room.
      publicAddress: options.publicAddress,
      selectProcessIdToCreateRoom: placeRooms(presence),
    });
    for (const definition of options.rooms)
      server.define(definition.name, definition.room, definition.options);
    setTransport(transport);
    await matchMaker.accept();
    const pins = options.hostsRooms ?? [];
    for (const name of pins) await presence.hset(ROOM_PINS_KEY, name, matchMaker.processId);
    log.info(
      {
        rooms: options.rooms.map((r) => r.name),
        presence: options.redisUrl ? 'redis' : 'local',
        // The Colyseus process id room listings name: which process hosts which room, for operators and tests.
        processId: matchMaker.processId,
        ...(pins.length ? { hostsRooms: pins } : {}),
      },
      'game ready',
    );
    return new GameServer(server, presence, pins);
  }

  /** Disposes every room (rooms save their players in onDispose) and disconnects clients. */
  async stop(): Promise<void> {
    // Pins still naming this process are lifted first, so rooms created meanwhile go by the default rule; with
    // Redis gone they stay, and the rule skips a pin whose process is no longer listed.
    await this.unpin().catch(() => undefined);
    await this.server.gracefullyShutdown(false);
  }

  private async unpin(): Promise<void> {
    for (const name of this.pins)
      if ((await this.presence.hget(ROOM_PINS_KEY, name)) === matchMaker.processId)
        await this.presence.hdel(ROOM_PINS_KEY, name);
  }
}
