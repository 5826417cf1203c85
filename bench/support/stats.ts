import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The percentile the benches print: the value at index floor(p% of n) of an ascending array (capped at the last),
 * 0 for an empty array. bench/signer.ts keeps its own nearest-rank definition.
 */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Latencies (ms, any order) as the crowd benches print them: p50, p95 and p99, and how many. */
export function latencySummary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (${sorted.length})`;
}

/** The bytes of live objects on this process's heap: used heap right after a full garbage collection. */
export function liveHeapBytes(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
