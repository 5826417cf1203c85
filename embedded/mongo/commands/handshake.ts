/**
 * Connection-level and diagnostic commands: the `hello`/`isMaster` handshake (a standalone server speaking
 * MongoDB 7.0's wire version, with sessions), `ping`, `buildInfo` and the small set of introspection commands
 * mongosh and Compass send on connect.
 */
import os from 'node:os';
import type { CommandContext, CommandHandler } from './context';
import { mongoError } from '../errors';

/** The MongoDB release whose wire protocol and replies the engine follows. */
export const SERVER_VERSION = '7.0.0';
/** Wire version of MongoDB 7.0. */
export const MAX_WIRE_VERSION = 21;
const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;

function hello(context: CommandContext, legacy: boolean) {
  return {
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(context.engine.clock.now()),
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
  };
}

const startedAt = Date.now();

/** Handlers by command name. */
export const handshakeCommands: Record<string, CommandHandler> = {
  hello: (context) => hello(context, false),
  isMaster: (context) => hello(context, true),
  ping: () => ({}),
  buildInfo: () => ({
    version: SERVER_VERSION,
    gitVersion: 'forge-embedded',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['forge-embedded'],
    javascriptEngine: 'none',
    modules: [],
  }),
  hostInfo: () => ({
    system: {
      hostname: os.hostname(),
      cpuAddrSize: 64,
      memSizeMB: Math.round(os.totalmem() / 2 ** 20),
      numCores: os.cpus().length,
    },
    os: { type: os.type(), name: os.platform(), version: os.release() },
    extra: {},
  }),
  getParameter: (context) => {
    if (context.command.featureCompatibilityVersion !== undefined || context.command.getParameter === '*') {
      return { featureCompatibilityVersion: { version: '7.0' } };
    }
    throw mongoError('InvalidOptions', 'no option found to get');
  },
  getCmdLineOpts: () => ({ argv: ['forge-embedded-mongo'], parsed: {} }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] } }),
  whatsmyuri: () => ({ you: '127.0.0.1' }),
  serverStatus: (context) => ({
    host: os.hostname(),
    version: SERVER_VERSION,
    process: 'mongod',
    pid: process.pid,
    uptime: Math.floor((Date.now() - startedAt) / 1000),
    uptimeMillis: Date.now() - startedAt,
    localTime: new Date(context.engine.clock.now()),
    metrics: { cursor: { open: { total: context.engine.cursors.openCount } } },
  }),
  getLog: (context) => (context.command.getLog === '*' ? { names: [] } : { totalLinesWritten: 0, log: [] }),
  endSessions: () => ({}),
  refreshSessions: () => ({}),
  killSessions: () => ({}),
  killAllSessions: () => ({}),
  fsync: (context) => {
    context.engine.syncNow();
    return { numFiles: context.engine.catalog.allCollections().length };
  },
};
