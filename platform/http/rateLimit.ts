import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors';

/** The state of one key after a request was counted. */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Requests counted in the current window, this one included. */
  consumed: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** A fixed-window request counter: `points` requests per `durationSeconds` per key. */
export interface Limiter {
  readonly points: number;
  readonly durationSeconds: number;
  /** Counts `points` (default 1) against `key`: a costlier request can count for more than one. */
  hit(key: string, points?: number): Promise<LimitDecision>;
  /** Gives back `points` counted against `key` (a refused charge that should not count). */
  refund(key: string, points: number): Promise<void>;
}

export interface LimiterOptions {
  /** Shared store; without it the count is per process. */
  redis?: Redis;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  /**
   * With Redis: once a key is over the limit, refuse it from process memory for the rest of its window instead of
   * asking Redis again (a client hammering the API then costs no Redis round trips). The decisions are the same;
   * `consumed` is not counted further for the refused requests. Default false.
   */
  blockOverLimitInMemory?: boolean;
}

/**
 * Builds a limiter on rate-limiter-flexible: counted in Redis so every process shares the limit (with an
 * in-memory insurance limiter taking over while Redis is unreachable), or in process memory without Redis.
 */
export function createLimiter(options: LimiterOptions): Limiter {
  const base = { keyPrefix: options.keyPrefix, points: options.points, duration: options.durationSeconds };
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        ...base,
        storeClient: options.redis,
        insuranceLimiter: new RateLimiterMemory(base),
        // Without inMemoryBlockDuration the block lasts exactly what is left of the key's window.
        ...(options.blockOverLimitInMemory ? { inMemoryBlockOnConsumed: options.points + 1 } : {}),
      })
    : new RateLimiterMemory(base);
  return {
    points: options.points,
    durationSeconds: options.durationSeconds,
    async hit(key, points = 1) {
      let result: RateLimiterRes;
      let allowed = true;
      try {
        result = await limiter.consume(key, points);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        result = rejection;
        allowed = false;
      }
      return {
        allowed,
        limit: options.points,
        remaining: Math.max(0, result.remainingPoints),
        consumed: result.consumedPoints,
        resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
      };
    },
    async refund(key, points) {
      await limiter.reward(key, points);
    },
  };
}

export interface RateLimitOptions {
  /** What a request is counted under (default: the client IP, as resolved through TRUST_PROXY). */
  key?: (req: Request) => string;
  /** Requests for which this returns true are not counted (health probes). */
  skip?: (req: Request) => boolean;
  code?: string;
}

/**
 * Express middleware enforcing `limiter`, with the IETF RateLimit headers (draft-7: `RateLimit-Policy`,
 * `RateLimit`) on every counted response, and 429 + `Retry-After` when the limit is exceeded.
 */
export function rateLimit(limiter: Limiter, options: RateLimitOptions = {}): RequestHandler {
  const keyOf = options.key ?? ((req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown');
  const policy = `${limiter.points};w=${limiter.durationSeconds}`;
  return (req, res, next) => {
    if (options.skip?.(req)) {
      next();
      return;
    }
    limiter.hit(keyOf(req)).then((decision) => {
      res.setHeader('RateLimit-Policy', policy);
      res.setHeader(
        'RateLimit',
        `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`,
      );
      if (decision.allowed) next();
      else next(new RateLimitedError(decision.resetSeconds, 'Too many requests: slow down', options.code));
    }, next);
  };
}
