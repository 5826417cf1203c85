import type { Provider } from 'ethers';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock';

/**
 * Resolves a wallet address to its primary ENS name (reverse record, forward-verified): the name, null when the
 * address has none, or undefined when the lookup failed and the answer is unknown.
 */
export interface EnsResolver {
  nameOf(address: string): Promise<string | null | undefined>;
}

/** Used when no RPC is configured: names are unknown (recorded names are left as they are, none is forwarded). */
export const noEns: EnsResolver = { nameOf: async () => undefined };

/** Options of CachedEnsResolver. */
export interface EnsCacheOptions {
  /** How long an answer is kept (default 10 minutes). */
  ttlMs?: number;
  /** Most addresses kept (default 10,000). */
  max?: number;
  /** Time source of the cache's TTL (default the wall clock). */
  clock?: Clock;
}

/**
 * ENS lookups through an RPC provider (ethers `lookupAddress`, which checks that the name resolves back to the
 * address), cached for `ttlMs`, misses included. Lookup failures are logged and answer undefined without being
 * cached, so a flaky RPC never blocks sign-in.
 */
export class CachedEnsResolver implements EnsResolver {
  private readonly cache: LRUCache<string, { name: string | null }>;

  constructor(
    private readonly provider: Provider,
    private readonly logger: Logger,
    options: EnsCacheOptions = {},
  ) {
    const clock = options.clock ?? systemClock;
    this.cache = new LRUCache({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 600_000,
      perf: { now: () => clock.now() },
      // Read the clock on every check (the default caches it for 1 ms, which a manual test clock would defeat).
      ttlResolution: 0,
    });
  }

  async nameOf(address: string): Promise<string | null | undefined> {
    const key = address.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached.name;
    try {
      const name = await this.provider.lookupAddress(address);
      this.cache.set(key, { name });
      return name;
    } catch (error) {
      this.logger.warn({ err: error, address }, 'ENS lookup failed');
      return undefined;
    }
  }
}
