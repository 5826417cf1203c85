/**
 * The percentile the benches print: the value at index floor(p% of n) of an ascending array (capped at the last),
 * 0 for an empty array. bench/signer.ts keeps its own nearest-rank definition.
 */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
