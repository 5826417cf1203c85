import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { LocalDriver, LocalPresence, matchMaker, Server, type Room } from '@colyseus/core';
import { setTransport } from '@colyseus/core/Transport';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import type { Logger } from 'pino';

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
}

/**
 * The Colyseus side of the process: WebSocket transport on the shared HTTP server, matchmaker, room types. Colyseus's
 * matchmaker is a module-level singleton, so a process hosts at most one GameServer at a time.
 * Matchmaking HTTP routes are the platform's own (`matchmakingRouter` in the Express app), so authentication, CORS
 * and problem JSON are the same as on every other route.
 */
export class GameServer {
  private constructor(readonly server: Server) {}

  static async start(options: GameServerOptions): Promise<GameServer> {
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
    });
    for (const definition of options.rooms)
      server.define(definition.name, definition.room, definition.options);
    setTransport(transport);
    await matchMaker.accept();
    log.info(
      {
        rooms: options.rooms.map((r) => r.name),
        presence: options.redisUrl ? 'redis' : 'local',
        // The Colyseus process id room listings name: which process hosts which room, for operators and tests.
        processId: matchMaker.processId,
      },
      'game ready',
    );
    return new GameServer(server);
  }

  /** Disposes every room (rooms save their players in onDispose) and disconnects clients. */
  async stop(): Promise<void> {
    await this.server.gracefullyShutdown(false);
  }
}
