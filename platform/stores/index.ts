import path from 'node:path';
import type { Connection } from 'mongoose';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { connectMongo, mongoCheck } from './mongo';
import { connectRedis, redisCheck } from './redis';
import { assertQdrantReachable, qdrantCheck } from './qdrant';
import type { ReadinessCheck } from './readiness';

/**
 * The store connections of one platform instance. MongoDB and Qdrant are always present (embedded engines under
 * DATA_DIR when their URLs are unset); Redis is absent without REDIS_URL, and the components that need it use
 * in-process equivalents.
 */
export interface Stores {
  /** MongoDB: the configured server, or the embedded engine under DATA_DIR when MONGODB_URI is unset. */
  mongo: Connection;
  /** Qdrant: the configured server, or the embedded engine under DATA_DIR when QDRANT_URL is unset. */
  qdrant: QdrantClient;
  redis?: Redis;
  checks: ReadinessCheck[];
  close(): Promise<void>;
}

/** Where an embedded engine keeps its data and logs. */
export interface EngineOptions {
  dir: string;
  logger: Logger;
}

/**
 * Starters of the in-process engines used when a store's URL is unset. They live in `embedded/`, above the
 * platform, so the composition (main.ts, test helpers) hands them in; without them an unset URL fails start-up.
 */
export interface EmbeddedEngines {
  mongo(options: EngineOptions): Promise<{ uri: string; close(): Promise<void> }>;
  qdrant(options: EngineOptions): Promise<{ url: string; close(): Promise<void> }>;
}

/** Fails start-up when a store's URL is unset and no embedded engine was handed in. */
function engineMissing(variable: string): never {
  throw new Error(`${variable} is unset and this process was started without the embedded engines`);
}

/** How long start-up waits for a configured Qdrant to answer. */
const QDRANT_STARTUP_TIMEOUT_MS = 5_000;

/**
 * Opens every configured store; on failure closes what was opened and rethrows. A configured store that cannot
 * be reached fails start-up with an error naming its variable; later outages show in the readiness checks.
 */
export async function openStores(config: Config, logger: Logger, engines?: EmbeddedEngines): Promise<Stores> {
  const closers: (() => Promise<unknown>)[] = [];
  const checks: ReadinessCheck[] = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => undefined);
  };
  try {
    let redis: Redis | undefined;
    if (config.REDIS_URL) {
      const client = await connectRedis(config.REDIS_URL, logger);
      redis = client;
      closers.push(() => client.quit());
      checks.push(redisCheck(client));
    }
    let mongoUri = config.MONGODB_URI;
    if (!mongoUri) {
      const engine = await (engines ?? engineMissing('MONGODB_URI')).mongo({
        dir: path.resolve(config.DATA_DIR, 'mongo'),
        logger: logger.child({ component: 'embedded-mongo' }),
      });
      closers.push(() => engine.close());
      mongoUri = engine.uri;
      logger.info({ uri: engine.uri }, 'embedded MongoDB engine started (MONGODB_URI unset)');
    }
    const connection = await connectMongo(mongoUri, config.MONGODB_DB, logger);
    closers.push(() => connection.close());
    checks.push(mongoCheck(connection));
    const mongo = connection;
    let qdrantUrl = config.QDRANT_URL;
    if (!qdrantUrl) {
      const engine = await (engines ?? engineMissing('QDRANT_URL')).qdrant({
        dir: path.resolve(config.DATA_DIR, 'qdrant'),
        logger: logger.child({ component: 'embedded-qdrant' }),
      });
      closers.push(() => engine.close());
      qdrantUrl = engine.url;
      logger.info({ url: engine.url }, 'embedded Qdrant engine started (QDRANT_URL unset)');
    } else {
      await assertQdrantReachable(qdrantUrl, config.QDRANT_API_KEY, QDRANT_STARTUP_TIMEOUT_MS);
    }
    checks.push(qdrantCheck(qdrantUrl, config.QDRANT_API_KEY));
    const qdrant = new QdrantClient({
      url: qdrantUrl,
      apiKey: config.QDRANT_API_KEY,
      checkCompatibility: false,
    });
    return { mongo, redis, qdrant, checks, close };
  } catch (error) {
    await close();
    throw error;
  }
}
