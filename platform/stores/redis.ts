import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './readiness';

/**
 * Connects to Redis at `url` and waits for the first connection (start-up fails fast if Redis is unreachable);
 * afterwards ioredis reconnects on its own and the readiness probe reports outages.
 */
export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    // While Redis is unreachable a command fails at once instead of waiting in a queue for the reconnect, so the
    // in-process fallbacks (insurance rate limiter, L1 cache) answer without delay; see /readyz "degraded".
    enableOfflineQueue: false,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', (error) => logger.warn({ err: error, component: 'redis' }, 'redis error'));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect to Redis (${(error as Error).message})`, { cause: error });
  }
  return redis;
}

/** Readiness check: Redis answers PING; while it does not, the platform runs degraded on in-process fallbacks. */
export function redisCheck(redis: Redis): ReadinessCheck {
  return {
    name: 'redis',
    fallback: 'in-process rate limits and search cache (per process)',
    async check() {
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
    },
  };
}
