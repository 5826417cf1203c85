import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { hasRole, type Config } from './config';
import { createApp, type ServiceRegistrar } from './app';
import { systemClock, type Clock } from './clock';
import { openStores, type EmbeddedEngines, type Stores } from './stores';
import { GameServer, type RoomDefinition } from './game/gameServer';
import { colyseusUpgradeRefusal, noChannelAt } from './game/upgradeRouting';
import { guardUpgradeSocket, refuseUpgrade } from './http/upgradeRefusal';
import { answerClientErrors } from './http/clientErrors';
import { Scheduler, type JobRegistrar } from './jobs/scheduler';
import { listen } from './listen';

/** What product parts are built from: the configuration, the logger, the opened stores and the clock. */
export interface PlatformContext {
  config: Config;
  logger: Logger;
  stores: Stores;
  clock: Clock;
  /** False once shutdown has begun, so readiness probes turn load balancers away. */
  isAccepting: () => boolean;
}

/**
 * A WebSocket endpoint of a product area outside Colyseus, on the shared HTTP server. Served with the `api`
 * role; Colyseus never sees upgrades of its paths.
 */
export interface UpgradeRoute {
  /** Request paths (path and query) it serves. */
  path: RegExp;
  /** Completes or refuses the upgrade (answering with a problem response). */
  handle(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes its open connections; called as shutdown begins, while HTTP drains. */
  close(): Promise<void>;
}

/**
 * A TCP service of a product area on a port of its own beside the HTTP port (the world's telnet port). The platform
 * starts it once the HTTP server listens and the rooms run, and closes it as shutdown begins, while HTTP drains.
 */
export interface PortListener {
  /** Starts listening; resolves with the bound port. */
  start(): Promise<number>;
  /** Stops accepting and closes its open connections. */
  close(): Promise<void>;
}

/** The product's parts: each service area's routes, the room types of the world, the background jobs. */
export interface ProductParts {
  /** Routes mounted in every role, ahead of body parsing and the game middleware (the health probes). */
  probes?: ServiceRegistrar[];
  services?: ServiceRegistrar[];
  rooms?: RoomDefinition[];
  jobs?: JobRegistrar[];
  /** WebSocket endpoints outside Colyseus (api role). */
  upgrades?: UpgradeRoute[];
  /** Listeners on ports of their own (the area decides in which roles it has any). */
  listeners?: PortListener[];
  /** Guards admin pages such as the Colyseus monitor (admin sessions); without it they are closed. */
  adminGuard?: RequestHandler[];
  /** The allowed-origin policy (CORS) of platform-level routes such as matchmaking; without it no CORS headers. */
  cors?: RequestHandler;
  /** Released after the HTTP server and rooms have stopped, before the stores close. */
  close?: () => Promise<void>;
}

export interface PlatformOptions {
  config: Config;
  logger: Logger;
  /** Builds the product's parts once the stores are open (`productParts.ts` in production). */
  parts?: (context: PlatformContext) => ProductParts | Promise<ProductParts>;
  /** The embedded MongoDB and Qdrant engines, started for a store whose URL is unset (see `embeddedEngines`). */
  engines?: EmbeddedEngines;
  clock?: Clock;
}

/**
 * One running process: stores → Express app → Colyseus on the same HTTP server → Agenda worker. `stop()` is the
 * graceful shutdown: stop accepting, let in-flight requests finish (bounded by SHUTDOWN_TIMEOUT_MS), dispose rooms,
 * drain jobs, close stores.
 */
export class Platform {
  private stopping?: Promise<void>;

  private constructor(
    private readonly state: { accepting: boolean },
    readonly config: Config,
    private readonly logger: Logger,
    readonly httpServer: http.Server,
    readonly stores: Stores,
    readonly game: GameServer | undefined,
    readonly scheduler: Scheduler,
    private readonly parts: ProductParts,
  ) {}

  static async start(options: PlatformOptions): Promise<Platform> {
    const { config, logger } = options;
    const stores = await openStores(config, logger, options.engines);
    const httpServer = http.createServer({ keepAliveTimeout: 5_000 });
    answerClientErrors(httpServer, logger);
    let game: GameServer | undefined;
    let scheduler: Scheduler | undefined;
    const state = { accepting: true };
    let parts: ProductParts = {};
    try {
      const isAccepting = () => state.accepting;
      parts =
        (await options.parts?.({
          config,
          logger,
          stores,
          clock: options.clock ?? systemClock,
          isAccepting,
        })) ?? {};
      const app = createApp({
        config,
        logger,
        stores,
        probes: parts.probes ?? [],
        services: parts.services ?? [],
        adminGuard: parts.adminGuard,
        rooms: parts.rooms ?? [],
        cors: parts.cors,
      });
      httpServer.on('request', app);
      const upgrades = upgradeRoutes(config, parts);
      // Upgrades are routed by path before anything is accepted: an area's channel, else a Colyseus room socket
      // with a reserved seat; everything else is refused with a problem response (404, or 401 for a bad seat).
      const routeOf = (req: http.IncomingMessage) =>
        upgrades.find((candidate) => candidate.path.test(req.url ?? ''));
      const isColyseusUpgrade = (req: http.IncomingMessage) =>
        !routeOf(req) && colyseusUpgradeRefusal(req) === undefined;
      httpServer.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
        // Before anything else: a client may reset while its channel checks a token or while it is refused.
        guardUpgradeSocket(socket);
        const route = routeOf(req);
        if (route) return route.handle(req, socket, head);
        const refusal = game ? colyseusUpgradeRefusal(req) : noChannelAt(req);
        if (refusal) refuseUpgrade(socket, req, refusal, logger);
      });
      if (hasRole(config, 'game')) {
        game = await GameServer.start({
          httpServer,
          logger,
          redisUrl: config.REDIS_URL,
          rooms: parts.rooms ?? [],
          acceptsUpgrade: isColyseusUpgrade,
          publicAddress: config.GAME_PUBLIC_ADDRESS,
          hostsRooms: config.GAME_HOSTS_ROOMS,
        });
      }
      scheduler = await Scheduler.create({ mongo: stores.mongo, logger, registrars: parts.jobs ?? [] });
      if (hasRole(config, 'worker')) await scheduler.start();
      await listen(httpServer, config.PORT, config.HOST);
      for (const listener of parts.listeners ?? []) await listener.start();
      const platform = new Platform(state, config, logger, httpServer, stores, game, scheduler, parts);
      logger.info({ port: platform.port, host: config.HOST, roles: config.ROLES }, 'listening');
      return platform;
    } catch (error) {
      await Promise.all((parts.listeners ?? []).map((listener) => listener.close().catch(() => undefined)));
      await game?.stop().catch(() => undefined);
      await scheduler?.stop(0).catch(() => undefined);
      httpServer.close();
      await parts.close?.().catch(() => undefined);
      await stores.close();
      throw error;
    }
  }

  /** The bound TCP port (useful with PORT=0). */
  get port(): number {
    return (this.httpServer.address() as AddressInfo).port;
  }

  /** Graceful shutdown; safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    const timeoutMs = this.config.SHUTDOWN_TIMEOUT_MS;
    this.state.accepting = false;
    this.logger.info({ timeoutMs }, 'shutting down');
    await Promise.all([
      drainHttp(this.httpServer, timeoutMs, this.logger),
      this.game?.stop(),
      ...upgradeRoutes(this.config, this.parts).map((route) => route.close()),
      ...(this.parts.listeners ?? []).map((listener) => listener.close()),
    ]);
    await this.scheduler.stop(timeoutMs);
    await this.parts.close?.();
    await this.stores.close();
    this.logger.info('stopped');
  }
}

/** The parts' WebSocket endpoints this process serves (they belong to the api role). */
function upgradeRoutes(config: Config, parts: ProductParts): UpgradeRoute[] {
  return hasRole(config, 'api') ? (parts.upgrades ?? []) : [];
}

/**
 * Stops accepting connections and waits for in-flight requests. Idle keep-alive sockets are closed as soon as
 * they are idle; whatever is still open after `timeoutMs` is cut.
 */
function drainHttp(server: http.Server, timeoutMs: number, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
