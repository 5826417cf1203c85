import type { Provider } from 'ethers';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';

/** Resolves a wallet address to its primary ENS name (reverse record, forward-verified), or null when it has none. */
export interface EnsResolver {
  nameOf(address: string): Promise<string | null>;
}

/** Used when no RPC is configured: nobody has a name. */
export const noEns: EnsResolver = { nameOf: async () => null };

/**
 * ENS lookups through an RPC provider (ethers `lookupAddress`, which checks that the name resolves back to the
 * address), cached for `ttlMs` (default 10 minutes), misses included. Lookup failures are logged and answer
 * null without being cached, so a flaky RPC never blocks sign-in.
 */
export class CachedEnsResolver implements EnsResolver {
  private readonly cache: LRUCache<string, { name: string | null }>;

  constructor(
    private readonly provider: Provider,
    private readonly logger: Logger,
    options: { ttlMs?: number; max?: number } = {},
  ) {
    this.cache = new LRUCache({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 600_000 });
  }

  async nameOf(address: string): Promise<string | null> {
    const key = address.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached.name;
    try {
      const name = await this.provider.lookupAddress(address);
      this.cache.set(key, { name });
      return name;
    } catch (error) {
      this.logger.warn({ err: error, address }, 'ENS lookup failed');
      return null;
    }
  }
}
