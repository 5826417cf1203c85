import { systemClock, type Clock } from '../../../platform/clock';
import type { NonceSource } from './chainContracts';

/** Options of NonceReader. */
export interface NonceReaderOptions {
  /** The contract whose `getNonce` is read. */
  source: NonceSource;
  /** How long a read nonce is reused; default 4000 ms. SPEC 4.10 rule 1 caps it under 5 s. */
  ttlMs?: number;
  /** Entries kept before expired ones are swept; default 10 000. */
  maxEntries?: number;
  clock?: Clock;
}

/** Longest cache lifetime SPEC 4.10 allows ("cache only under 5 seconds"). */
export const MAX_NONCE_TTL_MS = 4999;

interface Entry {
  nonce?: bigint;
  fetchedAt: number;
  inflight?: Promise<bigint>;
}

/**
 * The signer-side nonce of each user from the contract's `getNonce`, cached for under 5 seconds. Concurrent
 * reads of one address share one RPC call. Call `invalidate(address)` after issuing a signature for it (and when a
 * SignatureConsumed event shows it was used), so the next request reads the chain again.
 */
export class NonceReader {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly clock: Clock;

  constructor(private readonly options: NonceReaderOptions) {
    this.ttlMs = options.ttlMs ?? 4000;
    if (!(this.ttlMs >= 0 && this.ttlMs <= MAX_NONCE_TTL_MS)) {
      throw new RangeError(`nonce cache TTL must be 0..${MAX_NONCE_TTL_MS} ms, got ${this.ttlMs}`);
    }
    this.maxEntries = options.maxEntries ?? 10_000;
    this.clock = options.clock ?? systemClock;
  }

  /** The user's current nonce (cached up to `ttlMs`). */
  async read(address: string): Promise<bigint> {
    const key = address.toLowerCase();
    const entry = this.entries.get(key);
    if (entry?.nonce !== undefined && this.clock.now() - entry.fetchedAt < this.ttlMs) return entry.nonce;
    if (entry?.inflight) return entry.inflight;
    const fresh: Entry = { fetchedAt: this.clock.now() };
    fresh.inflight = this.options.source.getNonce(address).then(
      (nonce) => {
        // Cache only if no invalidate() replaced this entry meanwhile.
        if (this.entries.get(key) === fresh) {
          fresh.nonce = nonce;
          fresh.inflight = undefined;
        }
        return nonce;
      },
      (error: unknown) => {
        if (this.entries.get(key) === fresh) this.entries.delete(key);
        throw error;
      },
    );
    this.sweepIfFull();
    this.entries.set(key, fresh);
    return fresh.inflight;
  }

  /** Drops the cached nonce of `address`. */
  invalidate(address: string): void {
    this.entries.delete(address.toLowerCase());
  }

  /** Number of cached or in-flight entries. */
  get size(): number {
    return this.entries.size;
  }

  private sweepIfFull(): void {
    if (this.entries.size < this.maxEntries) return;
    const now = this.clock.now();
    for (const [key, entry] of this.entries) {
      if (!entry.inflight && now - entry.fetchedAt >= this.ttlMs) this.entries.delete(key);
    }
    // Still full of live entries: drop the oldest (Map iteration is insertion order).
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
