import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import pino, { type Logger } from 'pino';
import { cacheHits, cacheMisses } from '../../platform/metrics';
import type { Hit } from '../retrieval/hit';
import { serialisableHit } from '../retrieval/hitSchema';
import { decodeEntry, encodeEntry } from './cacheEntry';
import { searchCacheKey, type SearchCacheKeyParams } from './cacheKey';

/** The Redis commands the L2 level uses (an ioredis client satisfies it). */
export type CacheRedis = Pick<Redis, 'get' | 'mget' | 'set' | 'incr'>;

/** Cache settings. Defaults: L1 1000 entries for 5 min, L2 entries for 1 h under `brain:search:`. */
export interface SearchCacheOptions {
  /** Shared L2 and generation store; without it the cache is L1 only and invalidation is process-local. */
  redis?: CacheRedis;
  keyPrefix: string;
  l1MaxEntries: number;
  l1TtlMs: number;
  l2TtlSeconds: number;
  logger?: Logger;
  /**
   * Called (and awaited) before a lookup when the shared generation moved because of another process's
   * ingest, so this process can catch up (the brain refreshes its in-memory BM25 index). Until it succeeds
   * it is called again on later lookups.
   */
  onForeignInvalidation?: () => Promise<void>;
  /**
   * The text of an indexed chunk (the brain passes its in-memory fulltext index). With it, L2 entries leave
   * the chunk texts out (most of an entry's size, written on every miss) and a read restores them from here;
   * an entry naming a chunk this process does not know is a miss. Without it, entries carry the texts.
   */
  chunkText?: (chunkId: string) => string | undefined;
}

export const DEFAULT_SEARCH_CACHE_OPTIONS: SearchCacheOptions = {
  keyPrefix: 'brain:search:',
  l1MaxEntries: 1000,
  l1TtlMs: 5 * 60_000,
  l2TtlSeconds: 3600,
};

/** Hits, misses and hit rate (hits / lookups, 0 before any lookup) of one level. */
export interface CacheLevelStats {
  hits: number;
  misses: number;
  hitRate: number;
}

/** What GET /brain/cache/stats reports. */
export interface SearchCacheStats {
  l1: CacheLevelStats & { entries: number };
  l2: CacheLevelStats & { enabled: boolean; errors: number };
  generation: number;
}

/** Where `store` keeps a result: the hashed parameters and the generation the lookup saw. */
export interface CacheSlot {
  hash: string;
  generation: number;
}

/** Deep-freezes hits (their arrays included) for sharing through L1. */
function freezeHits(hits: Hit[]): readonly Hit[] {
  for (const hit of hits) {
    Object.freeze(hit.headingPath);
    Object.freeze(hit.symbols);
    Object.freeze(hit.foundBy);
    Object.freeze(hit);
  }
  return Object.freeze(hits);
}

function levelStats(hits: number, misses: number): CacheLevelStats {
  return { hits, misses, hitRate: hits + misses === 0 ? 0 : hits / (hits + misses) };
}

/**
 * Two-level search cache (SPEC.md 1): L1 an in-process LRU, L2 Redis shared by every process. Keys are the
 * hashed normalised query and parameters (see cacheKey); each entry holds the generation it was computed
 * under, and `invalidate()` (called after every ingest) increments the generation in Redis, so every process
 * stops using older entries at once (the next store of the same search replaces them). A lookup reads the
 * generation, and on an L1 miss the L2 entry with it, in one round trip. L2 entries are JSON with string ids
 * (see cacheEntry; without the chunk texts when `chunkText` can restore them); what comes back from Redis is
 * validated with zod and a corrupt entry counts as a miss. Redis errors never fail a search: they count as
 * L2 misses (and `errors`) and the last known generation is used.
 */
export class SearchCache {
  private readonly options: SearchCacheOptions;
  /** Frozen hits, so a caller can never change what later lookups get. */
  private readonly l1: LRUCache<string, { generation: number; hits: readonly Hit[] }>;
  private readonly logger: Logger;
  private generation = 0;
  /** The shared generation this process is known to be up to date with (for `onForeignInvalidation`). */
  private followed?: number;
  private readonly counts = { l1Hits: 0, l1Misses: 0, l2Hits: 0, l2Misses: 0, l2Errors: 0 };

  constructor(options: Partial<SearchCacheOptions> = {}) {
    this.options = { ...DEFAULT_SEARCH_CACHE_OPTIONS, ...options };
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.l1 = new LRUCache({ max: this.options.l1MaxEntries, ttl: this.options.l1TtlMs });
  }

  /** Cached hits for these parameters, or undefined on a miss at both levels. */
  async get(params: SearchCacheKeyParams): Promise<readonly Hit[] | undefined> {
    return (await this.lookup(params)).hits;
  }

  /** Stores hits at both levels under the current generation. */
  async set(params: SearchCacheKeyParams, hits: readonly Hit[]): Promise<void> {
    const hash = searchCacheKey(params);
    await this.readShared();
    await this.store({ hash, generation: this.generation }, hits);
  }

  /**
   * Looks up L1, then L2, and returns the slot where `store` should keep a freshly computed result. One
   * round trip to Redis reads the shared generation and, unless L1 holds an entry to check first, the L2 one.
   */
  async lookup(params: SearchCacheKeyParams): Promise<{ key: CacheSlot; hits?: readonly Hit[] }> {
    const hash = searchCacheKey(params);
    const local = this.l1.get(hash);
    let stored = await this.readShared(local ? undefined : hash);
    const key = { hash, generation: this.generation };
    if (local?.generation === this.generation) {
      this.count('L1', true);
      return { key, hits: local.hits };
    }
    this.count('L1', false);
    if (!this.options.redis) return { key };
    // L1 held a result of an older generation: the L2 entry was not read with the generation.
    if (local) stored = await this.readEntry(hash);
    const parsed = stored ? decodeEntry(stored, this.generation, this.options.chunkText) : undefined;
    this.count('L2', parsed !== undefined);
    if (!parsed) return { key };
    const hits = freezeHits(parsed);
    this.l1.set(hash, { generation: this.generation, hits });
    return { key, hits };
  }

  /** Stores hits in the slot from `lookup`: frozen in L1, as JSON with string ids in L2. */
  async store(slot: CacheSlot, hits: readonly Hit[]): Promise<void> {
    const serialisable = hits.map(serialisableHit);
    this.l1.set(slot.hash, { generation: slot.generation, hits: freezeHits(serialisable) });
    const redis = this.options.redis;
    if (!redis) return;
    try {
      const value = encodeEntry(slot.generation, serialisable, this.options.chunkText === undefined);
      await redis.set(this.entryKey(slot.hash), value, 'EX', this.options.l2TtlSeconds);
    } catch (error) {
      this.onRedisError(error, 'write');
    }
  }

  /** Makes every cached result unreachable, in this and (through Redis) every other process. */
  async invalidate(): Promise<void> {
    this.l1.clear();
    this.generation++;
    try {
      if (this.options.redis) {
        const next = await this.options.redis.incr(this.generationKey());
        // Still followed only if nobody else stepped in since: their change would have to be caught up.
        if (next === this.generation && this.followed === next - 1) this.followed = next;
        this.generation = next;
      }
    } catch (error) {
      this.onRedisError(error, 'invalidate');
    }
  }

  /** Counters since start-up, per level. */
  stats(): SearchCacheStats {
    const c = this.counts;
    return {
      l1: { ...levelStats(c.l1Hits, c.l1Misses), entries: this.l1.size },
      l2: {
        ...levelStats(c.l2Hits, c.l2Misses),
        enabled: this.options.redis !== undefined,
        errors: c.l2Errors,
      },
      generation: this.generation,
    };
  }

  private generationKey(): string {
    return `${this.options.keyPrefix}generation`;
  }

  private entryKey(hash: string): string {
    return `${this.options.keyPrefix}q:${hash}`;
  }

  /**
   * Reads the shared generation (catching up when another process moved it) and, with `hash`, that L2 entry
   * in the same round trip. Null when there is no entry, undefined when it was not read or Redis failed.
   */
  private async readShared(hash?: string): Promise<string | null | undefined> {
    const redis = this.options.redis;
    if (!redis) return undefined;
    let entry: string | null | undefined;
    try {
      let generation: string | null;
      if (hash) [generation, entry] = await redis.mget(this.generationKey(), this.entryKey(hash));
      else generation = await redis.get(this.generationKey());
      this.generation = Number(generation ?? 0);
    } catch (error) {
      this.onRedisError(error, 'read');
    }
    if (this.generation !== this.followed) await this.follow(this.generation);
    return entry;
  }

  private async readEntry(hash: string): Promise<string | null | undefined> {
    try {
      return await this.options.redis!.get(this.entryKey(hash));
    } catch (error) {
      this.onRedisError(error, 'read');
      return undefined;
    }
  }

  private async follow(generation: number): Promise<void> {
    try {
      await this.options.onForeignInvalidation?.();
      this.followed = generation;
    } catch (error) {
      this.logger.warn({ err: error }, 'search cache: catching up with another process failed');
    }
  }

  private count(level: 'L1' | 'L2', hit: boolean): void {
    const counter = `${level === 'L1' ? 'l1' : 'l2'}${hit ? 'Hits' : 'Misses'}` as const;
    this.counts[counter]++;
    (hit ? cacheHits : cacheMisses).inc({ level });
  }

  private onRedisError(error: unknown, operation: string): void {
    this.counts.l2Errors++;
    this.logger.warn({ err: error, operation }, 'search cache: Redis unavailable, L1 only');
  }
}
