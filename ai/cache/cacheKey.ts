import { createHash } from 'node:crypto';

/** The inputs that decide a search's result, and so its cache key. */
export interface SearchCacheKeyParams {
  query: string;
  strategy: string;
  indexes?: readonly string[];
  limit: number;
}

/** Unicode-compatibility fold, lower case, whitespace collapsed and trimmed: `  Circuit  BREAKER ` → `circuit breaker`. */
export function normaliseQuery(query: string): string {
  return query.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The cache key body: sha256 (hex) of the normalised query and parameters in a fixed key order, indexes
 * sorted and deduplicated (no indexes = all). The generation and prefix are added by the cache.
 */
export function searchCacheKey(params: SearchCacheKeyParams): string {
  const indexes = [...new Set(params.indexes ?? [])].sort();
  const material = JSON.stringify([normaliseQuery(params.query), params.strategy, indexes, params.limit]);
  return createHash('sha256').update(material).digest('hex');
}
