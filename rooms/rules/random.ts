import { seededRandom } from '../../platform/seededRandom';

/**
 * Seedable pseudo-random numbers (mulberry32, platform/seededRandom). Every random choice in the simulation draws from one `Rng`
 * per area room, so a fixed seed replays the same combat rolls, loot and fleeing in tests.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** FNV-1a hash of a string, used to turn seeds like "42:forest" into a 32-bit state. */
export function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A deterministic generator for `seed` (number or string). */
export function createRng(seed: number | string): Rng {
  const next = seededRandom(typeof seed === 'number' ? seed : hashSeed(seed));
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
      return items[Math.floor(next() * items.length)];
    },
  };
}
