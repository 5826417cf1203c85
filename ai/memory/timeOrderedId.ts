import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KB at a time: a call per id cost 5-12 µs on this VM (the call, not the bytes). */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/**
 * A UUID version 7 for `ms`: 48 bits of milliseconds then random bits, so ids sort by creation time (pagination by
 * id) and are valid Qdrant point ids.
 */
export function timeOrderedId(ms: number): string {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  // The id's 16 bytes are written over its slice of the pool (each slice is used once).
  const at = used;
  used += 16;
  let time = Math.max(0, Math.floor(ms));
  for (let i = 5; i >= 0; i--) {
    pool[at + i] = time % 256;
    time = Math.floor(time / 256);
  }
  pool[at + 6] = (pool[at + 6] & 0x0f) | 0x70;
  pool[at + 8] = (pool[at + 8] & 0x3f) | 0x80;
  const hex = pool.toString('hex', at, at + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
