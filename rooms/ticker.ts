import type { ManualClock } from '../platform/clock';

/**
 * What drives an area room's simulation. By default a room ticks itself on its Colyseus clock every
 * `tickMs`; tests give every room one `ManualTicker` instead and step the world by hand, so a test never
 * waits on wall-clock ticks (and a `ManualClock` passed with it moves `tickMs` per step).
 */
export interface Ticker {
  /** Registers a room's step; returns the function that unregisters it (called on dispose). */
  register(step: () => void, tickMs: number): () => void;
}

/** Steps every registered room by hand: `advance(n)` runs n ticks of each room, in registration order. */
export class ManualTicker implements Ticker {
  private readonly steps = new Map<number, { step: () => void; tickMs: number }>();
  private nextId = 0;

  constructor(private readonly clock?: ManualClock) {}

  register(step: () => void, tickMs: number): () => void {
    const id = (this.nextId += 1);
    this.steps.set(id, { step, tickMs });
    return () => this.steps.delete(id);
  }

  /** Runs `ticks` ticks of every registered room (moving the clock, if any, by the first room's `tickMs`). */
  advance(ticks = 1): void {
    for (let i = 0; i < ticks; i++) {
      const entries = [...this.steps.values()];
      if (this.clock && entries.length > 0) this.clock.advance(entries[0].tickMs);
      for (const entry of entries) entry.step();
    }
  }

  /** How many rooms are registered. */
  get rooms(): number {
    return this.steps.size;
  }
}
