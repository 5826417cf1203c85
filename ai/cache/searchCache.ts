import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import pino, { type Logger } from 'pino';
import { z } from 'zod';
import { cacheHits, cacheMisses } from '../../platform/metrics';
import type { Hit } from '../retrieval/hit';
import { hitSchema, serialisableHit } from '../retrieval/hitSchema';
import { searchCacheKey, type SearchCacheKeyParams } from './cacheKey';

/** The Redis commands the L2 level uses (an ioredis client satisfies it). */
export type CacheRedis = Pick<Redis, 'get' | 'set' | 'incr'>;

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

/** An L2 entry: hits with their texts (v 1), or without, restored through `chunkText` (v 2). */
const entrySchema = z.discriminatedUnion('v', [
  z.object({ v: z.literal(1), hits: z.array(hitSchema) }),
  z.object({ v: z.literal(2), hits: z.array(hitSchema.omit({ text: true })) }),
]);

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
 * hashed normalised query and parameters (see cacheKey) under a generation number; `invalidate()` (called
 * after every ingest) increments the generation in Redis, so every process stops reading older entries,
 * which then age out. Entries are JSON `{ v, hits }` with string ids (without the chunk texts when
 * `chunkText` can restore them); what comes back from Redis is validated with zod and a corrupt entry
 * counts as a miss. Redis errors never fail a search: they count
 * as L2 misses (and `errors`) and the last known generation is used.
 */
export class SearchCache {
  private readonly options: SearchCacheOptions;
  /** Frozen hits, so a caller can never change what later lookups get. */
  private readonly l1: LRUCache<string, readonly Hit[]>;
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
    await this.store(await this.keyFor(params), hits);
  }

  /**
   * Looks up L1, then L2, and returns the key under which `store` should keep a freshly computed result,
   * so a search reads the shared generation once.
   */
  async lookup(params: SearchCacheKeyParams): Promise<{ key: string; hits?: readonly Hit[] }> {
    const key = await this.keyFor(params);
    const local = this.l1.get(key);
    if (local !== undefined) {
      this.count('L1', true);
      return { key, hits: local };
    }
    this.count('L1', false);
    const redis = this.options.redis;
    if (!redis) return { key };
    try {
      const stored = await redis.get(this.options.keyPrefix + key);
      const parsed = stored === null ? undefined : this.parse(stored);
      this.count('L2', parsed !== undefined);
      if (!parsed) return { key };
      const hits = freezeHits(parsed);
      this.l1.set(key, hits);
      return { key, hits };
    } catch (error) {
      this.onRedisError(error, 'read');
      this.count('L2', false);
      return { key };
    }
  }

  /** Stores hits under a key from `lookup`: frozen in L1, as JSON with string ids in L2. */
  async store(key: string, hits: readonly Hit[]): Promise<void> {
    const serialisable = hits.map(serialisableHit);
    this.l1.set(key, freezeHits(serialisable));
    try {
      const value = JSON.stringify(
        this.options.chunkText
          ? { v: 2, hits: serialisable.map(({ text: _text, ...rest }) => rest) }
          : { v: 1, hits: serialisable },
      );
      await this.options.redis?.set(this.options.keyPrefix + key, value, 'EX', this.options.l2TtlSeconds);
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

  private async keyFor(params: SearchCacheKeyParams): Promise<string> {
    if (this.options.redis) {
      try {
        this.generation = Number((await this.options.redis.get(this.generationKey())) ?? 0);
      } catch (error) {
        this.onRedisError(error, 'generation read');
      }
      if (this.generation !== this.followed) await this.follow(this.generation);
    }
    return `g${this.generation}:${searchCacheKey(params)}`;
  }

  private async follow(generation: number): Promise<void> {
    try {
      await this.options.onForeignInvalidation?.();
      this.followed = generation;
    } catch (error) {
      this.logger.warn({ err: error }, 'search cache: catching up with another process failed');
    }
  }

  private parse(stored: string): Hit[] | undefined {
    let entry;
    try {
      entry = entrySchema.safeParse(JSON.parse(stored));
    } catch {
      return undefined;
    }
    if (!entry.success) return undefined;
    if (entry.data.v === 1) return entry.data.hits;
    const hits: Hit[] = [];
    for (const hit of entry.data.hits) {
      const text = this.options.chunkText?.(hit.chunkId);
      if (text === undefined) return undefined;
      hits.push({ ...hit, text });
    }
    return hits;
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
