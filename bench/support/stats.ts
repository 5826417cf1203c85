import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The percentile the benches print: the value at index floor(p% of n) of an ascending array (capped at the last),
 * 0 for an empty array. bench/signer.ts keeps its own nearest-rank definition.
 */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The bytes of live objects on this process's heap: used heap right after a full garbage collection. */
export function liveHeapBytes(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
