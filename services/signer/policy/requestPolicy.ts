import { systemClock, type Clock } from '../../../platform/clock';
import { forgeCooldown, insufficientBalance, signatureRateLimited } from '../errors';

/** SPEC 5 / 8: signature requests per address per window. */
export const SIGNATURE_REQUEST_LIMIT = { limit: 10, windowMs: 60_000 } as const;

/** Counts requests per key in a sliding window. A Redis-backed store shares the count across processes. */
export interface RequestWindowStore {
  /** Records a request at `now` unless `limit` requests are already inside the window; returns the verdict. */
  tryAcquire(
    key: string,
    now: number,
    windowMs: number,
    limit: number,
  ): Promise<{ allowed: boolean; retryAfterMs: number }>;
}

/** Last forge start per forger. A Redis-backed store shares it across processes. */
export interface ForgeCooldownStore {
  /** Records a start at `now` unless the previous one is less than `cooldownMs` old; returns the verdict. */
  tryBegin(
    forger: string,
    now: number,
    cooldownMs: number,
  ): Promise<{ allowed: boolean; retryAfterMs: number }>;
  /** Undoes the start recorded at `startedAt` (signing failed after tryBegin); a later start is left alone. */
  cancel(forger: string, startedAt: number): Promise<void>;
}

/** The off-chain soft-currency ledger (the economy service). */
export interface SoftCurrencyBalances {
  /** Spendable soft-currency balance of `address`, in the smallest unit. */
  getBalance(address: string): Promise<bigint>;
  /** Holds `amount` of it for start signature `holdId` until `expiresAt`; false when it does not cover it. */
  hold(address: string, amount: bigint, holdId: string, expiresAt: Date): Promise<boolean>;
  /** Releases the hold of a signature that was not handed out. */
  release(address: string, holdId: string): Promise<void>;
}

/** Sliding-window request counts in process memory (single process, tests). */
export class InMemoryRequestWindowStore implements RequestWindowStore {
  private readonly hits = new Map<string, number[]>();

  async tryAcquire(key: string, now: number, windowMs: number, limit: number) {
    const recent = (this.hits.get(key) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= limit) {
      this.hits.set(key, recent);
      return { allowed: false, retryAfterMs: recent[0] + windowMs - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true, retryAfterMs: 0 };
  }
}

/** Forge cooldowns in process memory (single process, tests). */
export class InMemoryForgeCooldownStore implements ForgeCooldownStore {
  private readonly lastStart = new Map<string, number>();

  async tryBegin(forger: string, now: number, cooldownMs: number) {
    const last = this.lastStart.get(forger);
    if (last !== undefined && now - last < cooldownMs) {
      return { allowed: false, retryAfterMs: last + cooldownMs - now };
    }
    this.lastStart.set(forger, now);
    return { allowed: true, retryAfterMs: 0 };
  }

  async cancel(forger: string, startedAt: number): Promise<void> {
    if (this.lastStart.get(forger) === startedAt) this.lastStart.delete(forger);
  }
}

/** Options of SignatureRequestPolicy. */
export interface SignatureRequestPolicyOptions {
  balances: SoftCurrencyBalances;
  /** Default in-memory. */
  requestWindows?: RequestWindowStore;
  /** Default in-memory. */
  cooldowns?: ForgeCooldownStore;
  /** Minimum time between two forge start signatures of one forger; default 60 000 ms, 0 disables. */
  forgeCooldownMs?: number;
  /** Default 10 per 60 s. */
  requestLimit?: { limit: number; windowMs: number };
  clock?: Clock;
}

/**
 * The request rules SPEC 4.10 and 5 put before signing: 10 signature requests per minute per address (429),
 * a cooldown between forge starts per forger (429), and an off-chain balance that covers zenCommitted (409).
 * The cooldown runs from the last issued start signature, so requesting signatures cannot be used to farm
 * forgeIds while one is pending.
 */
export class SignatureRequestPolicy {
  private readonly requestWindows: RequestWindowStore;
  private readonly cooldowns: ForgeCooldownStore;
  private readonly forgeCooldownMs: number;
  private readonly requestLimit: { limit: number; windowMs: number };
  private readonly clock: Clock;

  constructor(private readonly options: SignatureRequestPolicyOptions) {
    this.requestWindows = options.requestWindows ?? new InMemoryRequestWindowStore();
    this.cooldowns = options.cooldowns ?? new InMemoryForgeCooldownStore();
    this.forgeCooldownMs = options.forgeCooldownMs ?? 60_000;
    this.requestLimit = options.requestLimit ?? SIGNATURE_REQUEST_LIMIT;
    this.clock = options.clock ?? systemClock;
  }

  /** Counts one signature request of `address`; throws `signatureRateLimited` past the limit. */
  async admitRequest(address: string): Promise<void> {
    const { limit, windowMs } = this.requestLimit;
    const now = this.clock.now();
    const verdict = await this.requestWindows.tryAcquire(address.toLowerCase(), now, windowMs, limit);
    if (!verdict.allowed) {
      throw signatureRateLimited(verdict.retryAfterMs / 1000, limit, windowMs / 1000);
    }
  }

  /** Throws `insufficientBalance` unless the forger's soft-currency balance covers `zenCommitted`. */
  async requireBalance(forger: string, zenCommitted: bigint): Promise<void> {
    const balance = await this.options.balances.getBalance(forger);
    if (balance < zenCommitted) throw insufficientBalance(balance, zenCommitted);
  }

  /** Holds `zenCommitted` for the start signature `holdId` (SPEC 4.10 rule 3); `insufficientBalance` if short. */
  async holdBalance(forger: string, zenCommitted: bigint, holdId: string, expiresAt: Date): Promise<void> {
    const held = await this.options.balances.hold(forger, zenCommitted, holdId, expiresAt);
    if (!held) throw insufficientBalance(await this.options.balances.getBalance(forger), zenCommitted);
  }

  /** Gives back the hold of a signature that was not handed out. */
  async releaseHold(forger: string, holdId: string): Promise<void> {
    await this.options.balances.release(forger, holdId);
  }

  /**
   * Runs `sign` inside the forger's cooldown: throws `forgeCooldown` while the previous start's cooldown
   * runs, otherwise starts a new one, and takes it back if `sign` fails (no signature, no cooldown).
   */
  async withForgeCooldown<T>(forger: string, sign: () => Promise<T>): Promise<T> {
    if (this.forgeCooldownMs <= 0) return sign();
    const key = forger.toLowerCase();
    const startedAt = this.clock.now();
    const verdict = await this.cooldowns.tryBegin(key, startedAt, this.forgeCooldownMs);
    if (!verdict.allowed) throw forgeCooldown(verdict.retryAfterMs / 1000);
    try {
      return await sign();
    } catch (error) {
      await this.cooldowns.cancel(key, startedAt);
      throw error;
    }
  }
}
