import type { Redis } from 'ioredis';
import type { Clock } from '../../../platform/clock';

/** Outcome of consuming a nonce: it was issued (now used), it was already used (a replay), or it is unknown/expired. */
export type NonceConsumption = 'consumed' | 'replayed' | 'unknown';

/**
 * Single-use SIWE nonces. `consume` is atomic: of two concurrent consumers of one nonce, exactly one gets
 * "consumed". A used nonce is remembered for `usedMemorySeconds` so a replay is told apart from an unknown nonce.
 */
export interface NonceStore {
  issue(nonce: string, ttlSeconds: number): Promise<void>;
  consume(nonce: string): Promise<NonceConsumption>;
}

const USED_MEMORY_SECONDS = 24 * 3600;

// GET + conditional SET in one script, so the issued → used transition cannot race.
const CONSUME_SCRIPT = `
local state = redis.call('GET', KEYS[1])
if state == 'issued' then
  redis.call('SET', KEYS[1], 'used', 'EX', ARGV[1])
  return 1
elseif state == 'used' then
  return 2
end
return 0`;

/** Nonces in Redis (shared by every API process): `siwe:nonce:<nonce>` → issued | used, with TTLs. */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'siwe:nonce:',
    private readonly usedMemorySeconds = USED_MEMORY_SECONDS,
  ) {}

  async issue(nonce: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.keyPrefix + nonce, 'issued', 'EX', ttlSeconds, 'NX');
  }

  async consume(nonce: string): Promise<NonceConsumption> {
    const result = await this.redis.eval(CONSUME_SCRIPT, 1, this.keyPrefix + nonce, this.usedMemorySeconds);
    return result === 1 ? 'consumed' : result === 2 ? 'replayed' : 'unknown';
  }
}

/** Nonces in process memory, for a single process without Redis. Expired entries are pruned as time passes. */
export class MemoryNonceStore implements NonceStore {
  private readonly entries = new Map<string, { state: 'issued' | 'used'; expiresAt: number }>();
  private lastPrune = 0;

  constructor(
    private readonly clock: Clock,
    private readonly usedMemorySeconds = USED_MEMORY_SECONDS,
  ) {}

  async issue(nonce: string, ttlSeconds: number): Promise<void> {
    this.prune();
    if (!this.entries.has(nonce)) {
      this.entries.set(nonce, { state: 'issued', expiresAt: this.clock.now() + ttlSeconds * 1000 });
    }
  }

  async consume(nonce: string): Promise<NonceConsumption> {
    this.prune();
    const entry = this.entries.get(nonce);
    if (!entry || entry.expiresAt <= this.clock.now()) return 'unknown';
    if (entry.state === 'used') return 'replayed';
    this.entries.set(nonce, { state: 'used', expiresAt: this.clock.now() + this.usedMemorySeconds * 1000 });
    return 'consumed';
  }

  private prune(): void {
    const now = this.clock.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    for (const [nonce, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(nonce);
  }
}
