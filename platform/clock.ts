/**
 * Injectable time source. Domain logic takes a `Clock` instead of calling `Date.now()` so TTLs, cooldowns,
 * decay and schedules are testable without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. Starts at `start` (default 2026-01-01T00:00:00Z). */
export class ManualClock implements Clock {
  private current: number;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }

  /** Jumps to an absolute time. */
  set(ms: number): void {
    this.current = ms;
  }
}
