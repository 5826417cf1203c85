/** Dot product of `length` floats of `a` from `aOffset` and `b` from `bOffset`, unrolled by four for V8. */
export function dot(
  a: Float32Array,
  aOffset: number,
  b: Float32Array,
  bOffset: number,
  length: number,
): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < length; i += 4) {
    s0 += a[aOffset + i] * b[bOffset + i];
    s1 += a[aOffset + i + 1] * b[bOffset + i + 1];
    s2 += a[aOffset + i + 2] * b[bOffset + i + 2];
    s3 += a[aOffset + i + 3] * b[bOffset + i + 3];
  }
  for (; i < length; i++) s0 += a[aOffset + i] * b[bOffset + i];
  return s0 + s1 + s2 + s3;
}

/** Training settings. Defaults: √n lists, 20 sample rows per list, 5 spherical k-means iterations. */
export interface IvfTrainingOptions {
  samplesPerList: number;
  iterations: number;
}

const DEFAULT_TRAINING: IvfTrainingOptions = { samplesPerList: 20, iterations: 5 };

/**
 * An inverted-file (IVF) partition of a space's unit-vector rows: spherical k-means centroids, and for each
 * centroid the rows nearest to it. A search scans only the rows of the centroids nearest the query, trading
 * a little recall for an order of magnitude less work. Deterministic: centroids start from evenly spaced
 * rows. Rows are tracked by number and follow the owner's swap-removals through `remove` and `move`.
 */
export class IvfPartition {
  readonly trainedSize: number;
  private readonly lists: number[][];
  private readonly listOf: number[] = [];
  private readonly slotOf: number[] = [];

  private constructor(
    private readonly dims: number,
    private readonly centroids: Float32Array,
    trainedSize: number,
  ) {
    this.trainedSize = trainedSize;
    this.lists = Array.from({ length: centroids.length / dims }, () => []);
  }

  /** Trains centroids on evenly spaced sample rows and assigns every row. */
  static train(matrix: Float32Array, rows: number, dims: number, options = DEFAULT_TRAINING): IvfPartition {
    const listCount = Math.max(1, Math.round(Math.sqrt(rows)));
    const sampleCount = Math.min(rows, listCount * options.samplesPerList);
    const sample = Array.from({ length: sampleCount }, (_, i) => Math.floor((i * rows) / sampleCount));
    const centroids = new Float32Array(listCount * dims);
    for (let l = 0; l < listCount; l++) {
      const row = sample[Math.floor((l * sampleCount) / listCount)];
      centroids.set(matrix.subarray(row * dims, (row + 1) * dims), l * dims);
    }
    const partition = new IvfPartition(dims, centroids, rows);
    for (let iteration = 0; iteration < options.iterations; iteration++) {
      const sums = new Float64Array(listCount * dims);
      for (const row of sample) {
        const l = partition.nearestList(matrix, row * dims);
        for (let d = 0; d < dims; d++) sums[l * dims + d] += matrix[row * dims + d];
      }
      for (let l = 0; l < listCount; l++) {
        let norm = 0;
        for (let d = 0; d < dims; d++) norm += sums[l * dims + d] ** 2;
        if (norm === 0) continue; // an empty list keeps its centroid
        norm = Math.sqrt(norm);
        for (let d = 0; d < dims; d++) centroids[l * dims + d] = sums[l * dims + d] / norm;
      }
    }
    for (let row = 0; row < rows; row++) partition.assign(matrix, row);
    return partition;
  }

  /** Puts a row in the list of its nearest centroid. */
  assign(matrix: Float32Array, row: number): void {
    const l = this.nearestList(matrix, row * this.dims);
    this.listOf[row] = l;
    this.slotOf[row] = this.lists[l].length;
    this.lists[l].push(row);
  }

  /** Forgets a row. */
  remove(row: number): void {
    const list = this.lists[this.listOf[row]];
    const last = list.pop()!;
    if (last !== row) {
      list[this.slotOf[row]] = last;
      this.slotOf[last] = this.slotOf[row];
    }
  }

  /** Records that the row numbered `from` now lives at number `to` (whose old row was removed). */
  move(from: number, to: number): void {
    const l = this.listOf[from];
    this.lists[l][this.slotOf[from]] = to;
    this.listOf[to] = l;
    this.slotOf[to] = this.slotOf[from];
  }

  /** Rows of the `probes` lists whose centroids are nearest the query. */
  candidates(query: Float32Array, probes: number): number[] {
    const listCount = this.lists.length;
    const scored = Array.from({ length: listCount }, (_, l) => ({
      l,
      score: dot(this.centroids, l * this.dims, query, 0, this.dims),
    }));
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, Math.min(probes, listCount)).flatMap(({ l }) => this.lists[l]);
  }

  /** Number of lists (centroids). */
  get listCount(): number {
    return this.lists.length;
  }

  private nearestList(matrix: Float32Array, offset: number): number {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let l = 0; l < this.lists.length; l++) {
      const score = dot(this.centroids, l * this.dims, matrix, offset, this.dims);
      if (score > bestScore) {
        bestScore = score;
        best = l;
      }
    }
    return best;
  }
}
