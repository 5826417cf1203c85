/**
 * A seedable pseudo-random generator (mulberry32): uniform numbers in [0, 1) from a 32-bit seed, the same
 * sequence for the same seed on every run. Not for secrets (use `node:crypto`): for simulations, test fixtures
 * and bench corpora that must replay exactly.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
