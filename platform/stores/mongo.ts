import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './readiness';

/**
 * Opens a dedicated mongoose connection (models are bound to it, not to mongoose's global default, so tests and
 * several platforms in one process stay apart). Fails fast when the server cannot be selected.
 */
export async function connectMongo(uri: string, dbName: string, logger: Logger): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    dbName,
    serverSelectionTimeoutMS: 5_000,
    autoIndex: true,
  });
  connection.on('error', (error) => logger.warn({ err: error, component: 'mongo' }, 'mongo error'));
  try {
    await connection.asPromise();
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw new Error(`MongoDB: cannot connect (${(error as Error).message})`, { cause: error });
  }
  return connection;
}

export function mongoCheck(connection: Connection): ReadinessCheck {
  return {
    name: 'mongo',
    async check() {
      const db = connection.db;
      if (!db) throw new Error('not connected');
      await db.command({ ping: 1 });
    },
  };
}
