/**
 * Embedded MongoDB engine: an in-process server speaking the MongoDB wire protocol on a loopback port, so the
 * official driver, mongoose and Agenda connect to it as to a standalone mongod. Data is journaled under `dir`.
 * See embedded/mongo/README.md for what it supports.
 */
import net from 'node:net';
import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock';
import { listen, urlHost } from '../../platform/listen';
import { lockDataDir } from '../dataDirLock';
import { Catalog } from './catalog/catalog';
import { DEFAULT_COMPACTION } from './catalog/collection';
import type { EngineState } from './commands/context';
import { CursorRegistry } from './cursors';
import { startMaintenance, type MaintenanceOptions } from './maintenance';
import { serveConnection } from './wire/connection';

/** How to start an engine. */
export interface MongoEngineOptions extends MaintenanceOptions {
  /** Data directory (created if missing); locked by `<dir>/LOCK` while the engine runs. */
  dir: string;
  /** TCP port; default 0 picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Default: a silent pino logger. */
  logger?: Logger;
  /** Time source for TTL expiry, cursor timeouts and `hello.localTime`; default the system clock. */
  clock?: Clock;
  /** Idle time after which an open cursor is closed; default 10 minutes, as MongoDB. */
  cursorTimeoutMs?: number;
  /** A collection file is compacted only past this size. Default 1 MiB. */
  compactMinBytes?: number;
  /** ...and only when superseded records make up more than this share of it. Default 0.5. */
  compactGarbageRatio?: number;
}

/** A running engine. */
export interface MongoEngine {
  /** `mongodb://127.0.0.1:<port>/`; callers append a database name. */
  uri: string;
  port: number;
  /** Stops accepting connections, closes clients, flushes and closes every file. */
  close(): Promise<void>;
}

/** Recovers the data under `options.dir` and starts serving. */
export async function startMongoEngine(options: MongoEngineOptions): Promise<MongoEngine> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  const unlock = lockDataDir(options.dir);
  const catalog = new Catalog(options.dir, logger, {
    minBytes: options.compactMinBytes ?? DEFAULT_COMPACTION.minBytes,
    garbageRatio: options.compactGarbageRatio ?? DEFAULT_COMPACTION.garbageRatio,
  });
  try {
    catalog.load();
  } catch (error) {
    unlock();
    throw error;
  }
  const cursors = new CursorRegistry(clock, options.cursorTimeoutMs);
  const maintenance = startMaintenance(catalog, cursors, clock, logger, options);
  const engine: EngineState = {
    catalog,
    cursors,
    clock,
    logger,
    syncNow: () => catalog.syncAll(),
    beforeCommand: () => maintenance.ttlIfDue(),
  };

  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, engine, ++connections);
  });
  const port = await listen(server, options.port ?? 0, host).catch((error: unknown) => {
    maintenance.stop();
    catalog.close();
    unlock();
    throw error;
  });
  const uri = `mongodb://${urlHost(host)}:${port}/`;
  logger.info({ uri, dir: options.dir }, 'embedded MongoDB engine listening');

  let closing: Promise<void> | undefined;
  return {
    uri,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        maintenance.stop();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }).then(() => {
        try {
          catalog.close();
        } finally {
          unlock();
        }
      });
      return closing;
    },
  };
}
