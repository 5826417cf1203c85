import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7 for `ms`: 48 bits of milliseconds then random bits, so ids sort by creation time (pagination by
 * id) and are valid Qdrant point ids.
 */
export function timeOrderedId(ms: number): string {
  const bytes = randomBytes(16);
  let time = Math.max(0, Math.floor(ms));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
