/** Waits `ms` milliseconds. Injected so tests advance a ManualClock instead of sleeping. */
export type Sleep = (ms: number) => Promise<void>;

/** Real waiting, on a timer. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry policy. Defaults (SPEC.md 8): 3 attempts in all, waits of 500 ms then 1000 ms (base × 2^n). */
export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  sleep: Sleep;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = { attempts: 3, baseDelayMs: 500, sleep: realSleep };

/** The wait before attempt `attempt + 1` (attempt counts from 1): base × 2^(attempt − 1). */
export function backoffDelayMs(attempt: number, baseDelayMs: number): number {
  return baseDelayMs * 2 ** (attempt - 1);
}

/**
 * Runs `operation` up to `attempts` times, waiting with exponential backoff between attempts, while
 * `shouldRetry(error)` holds. Deterministic (no jitter): the chain's fallback already spreads load, and
 * tests can assert exact waits. Rethrows the last error.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  shouldRetry: (error: unknown) => boolean,
  options: RetryOptions = DEFAULT_RETRY_OPTIONS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= options.attempts || !shouldRetry(error)) throw error;
      await options.sleep(backoffDelayMs(attempt, options.baseDelayMs));
    }
  }
}
