import { bulkTurnSpent, nextBulkTurn } from '../../platform/timeSlice';
import { dot } from '../retrieval/ivfPartition';

/** Clustering settings. Default: 6 iterations. */
export interface KMeansOptions {
  iterations: number;
}

const DEFAULTS: KMeansOptions = { iterations: 6 };

/** Cosine of two unit vectors of equal length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  return dot(a, 0, b, 0, a.length);
}

/** The normalised mean of unit vectors (a zero vector when they cancel out or there are none). */
export function centroidOf(vectors: readonly Float32Array[], dims: number): Float32Array {
  const sum = new Float32Array(dims);
  for (const v of vectors) for (let i = 0; i < dims; i++) sum[i] += v[i];
  return normalise(sum);
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalise(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(vector, 0, vector, 0, vector.length));
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

/**
 * Spherical k-means over unit vectors: `k` centroids started from evenly spaced rows (deterministic, so a
 * rebuild of the same corpus gives the same tree), each row assigned to its most similar centroid, centroids
 * re-averaged, `iterations` times. Returns the non-empty groups as row numbers. Work runs in the process's
 * shared bulk budget (`platform/timeSlice.ts`), so a 2,500-row level (k ≈ 310, 384 dimensions: a few seconds of
 * CPU) never holds the loop for much longer than a turn's budget.
 */
export async function sphericalKMeans(
  vectors: readonly Float32Array[],
  k: number,
  options: Partial<KMeansOptions> = {},
): Promise<number[][]> {
  const { iterations } = { ...DEFAULTS, ...options };
  const n = vectors.length;
  if (n === 0) return [];
  const count = Math.max(1, Math.min(k, n));
  if (count === 1) return [vectors.map((_, i) => i)];
  const dims = vectors[0].length;
  let centroids: Float32Array[] = Array.from({ length: count }, (_, c) =>
    vectors[Math.floor((c * n) / count)].slice(),
  );
  const assignment = new Int32Array(n).fill(-1);
  for (let round = 0; round < iterations; round++) {
    let moved = 0;
    for (let row = 0; row < n; row++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < count; c++) {
        const score = cosine(vectors[row], centroids[c]);
        if (score > bestScore) {
          bestScore = score;
          best = c;
        }
      }
      if (assignment[row] !== best) moved++;
      assignment[row] = best;
      if (bulkTurnSpent()) await nextBulkTurn();
    }
    if (moved === 0) break;
    const members: Float32Array[][] = Array.from({ length: count }, () => []);
    for (let row = 0; row < n; row++) members[assignment[row]].push(vectors[row]);
    // An emptied centroid keeps its place: rows may move back to it in the next round.
    centroids = members.map((group, c) => (group.length > 0 ? centroidOf(group, dims) : centroids[c]));
  }
  const groups: number[][] = Array.from({ length: count }, () => []);
  for (let row = 0; row < n; row++) groups[assignment[row]].push(row);
  return groups.filter((group) => group.length > 0);
}
