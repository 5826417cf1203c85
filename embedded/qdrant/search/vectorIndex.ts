import { scoreAt, type Distance } from './distance';
import { HnswGraph } from './hnswGraph';
import { TopK, type Hit } from './topK';

/** HNSW and planner settings of one vector, in Qdrant's units (kilobytes of float32 vectors). */
export interface IndexParams {
  m: number;
  efConstruct: number;
  /** Below this many KB of candidate vectors a filtered search scans them exactly instead of walking HNSW. */
  fullScanThresholdKb: number;
  /** Past this many KB of stored vectors the HNSW graph is built; 0 disables indexing. */
  indexingThresholdKb: number;
  /** `m` of the per-partition graphs built when `m` is 0 (Qdrant's `payload_m`); 0 builds none. */
  payloadM: number;
}

/**
 * The labels a request's filter allows, as the planner sees them: an estimate of how many there are (to
 * choose between an exact scan and a filtered graph walk), a per-label test the graph walk calls lazily, and
 * the full list for exact scans.
 */
export interface CandidateFilter {
  estimate: number;
  /** The payload partition (an indexed `must` match value) every allowed label is in, when there is one. */
  partition?: string;
  allows(label: number): boolean;
  all(): number[];
}

/** Options of one search over a vector index. */
export interface VectorSearchOptions {
  /** The request's filter; absent means every stored vector. */
  filter?: CandidateFilter;
  exact?: boolean;
  hnswEf?: number;
  /** Skip vectors that are not in the HNSW graph yet (Qdrant's `indexed_only`). */
  indexedOnly?: boolean;
}

const INITIAL_CAPACITY = 1024;

/**
 * Storage and search for one dense vector of a collection, addressed by the collection's point labels.
 * Vectors live in one growable Float32Array (exact scans and scoring read it directly); once the collection
 * passes the indexing threshold a global HNSW graph is built in the background from its waiting labels, and
 * searches merge graph hits with an exact scan of what still waits, so results never miss a point.
 * With `m: 0` and `payloadM > 0` (Qdrant's multitenancy setting) there is no global graph: each partition (a
 * payload index value, given by the collection) larger than the full-scan threshold gets a graph of its own.
 */
export class VectorIndex {
  private arena: Float32Array;
  private present: Uint8Array;
  private capacity = INITIAL_CAPACITY;
  private stored = 0;
  /** The global graph and its waiting labels; none when indexing is off (`m: 0` or threshold 0). */
  private readonly global: HnswGraph | null;
  private readonly partitions = new Map<string, HnswGraph>();
  /** Each label's partitions (kept only when partitions get graphs). */
  private readonly partitionsOf = new Map<number, readonly string[]>();
  /** Partitions large enough for a graph, with labels waiting to join it. */
  private readonly partitionsWaiting = new Set<string>();

  constructor(
    readonly dim: number,
    readonly distance: Distance,
    private readonly params: IndexParams,
  ) {
    this.arena = new Float32Array(this.capacity * dim);
    this.present = new Uint8Array(this.capacity);
    this.global = params.indexingThresholdKb > 0 && params.m > 0 ? this.newGraph(params.m) : null;
  }

  /** Number of stored vectors. */
  get size(): number {
    return this.stored;
  }

  /** True when payload partitions get graphs of their own (`m: 0` with `payload_m`). */
  get partitioned(): boolean {
    return this.params.m === 0 && this.params.payloadM > 0;
  }

  /**
   * Number of vectors searchable through an HNSW graph (Qdrant's `indexed_vectors_count`); with partition graphs,
   * their sizes added up (a label in two partitions counts twice), at most the number of stored vectors.
   */
  get indexedCount(): number {
    if (this.global?.built) return this.global.indexedCount;
    let indexed = 0;
    for (const graph of this.partitions.values()) indexed += graph.indexedCount;
    return Math.min(indexed, this.stored);
  }

  /** True when the global graph holds vectors (the one graph a snapshot saves). */
  get hasGlobalGraph(): boolean {
    return this.global?.built ?? false;
  }

  /** True while vectors wait to be added to a graph that should exist. */
  get needsIndexing(): boolean {
    return this.globalWaiting() || this.partitionsWaiting.size > 0;
  }

  has(label: number): boolean {
    return label < this.capacity && this.present[label] === 1;
  }

  /** The stored (for Cosine: normalised) vector of a label. */
  vector(label: number): Float32Array {
    return this.arena.slice(label * this.dim, (label + 1) * this.dim);
  }

  /**
   * The vectors of `labels` (those that have one), label → vector. `copy`: copied into one buffer, apart from later
   * writes (what a snapshot written over several tasks reads); else views of the live store, valid until the next
   * write (a snapshot written in one step).
   */
  vectorsOf(labels: readonly number[], copy: boolean): Map<number, Float32Array> {
    const kept = labels.filter((label) => this.has(label));
    if (!copy) {
      return new Map(
        kept.map((label) => [label, this.arena.subarray(label * this.dim, (label + 1) * this.dim)]),
      );
    }
    const buffer = new Float32Array(kept.length * this.dim);
    const copies = new Map<number, Float32Array>();
    kept.forEach((label, i) => {
      const at = i * this.dim;
      buffer.set(this.arena.subarray(label * this.dim, (label + 1) * this.dim), at);
      copies.set(label, buffer.subarray(at, at + this.dim));
    });
    return copies;
  }

  /** Stores or replaces a label's vector; the graphs pick it up on the next indexing step. */
  set(label: number, vector: Float32Array): void {
    this.ensureCapacity(label + 1);
    this.arena.set(vector, label * this.dim);
    if (this.present[label] === 0) this.stored++;
    this.present[label] = 1;
    this.global?.queue(label);
    for (const key of this.partitionsOf.get(label) ?? []) this.queueInPartition(key, label);
  }

  /** Removes a label's vector and forgets its partitions (an upsert assigns them again). */
  remove(label: number): void {
    const keys = this.partitionsOf.get(label);
    this.partitionsOf.delete(label);
    if (!this.has(label)) return;
    this.present[label] = 0;
    this.stored--;
    this.global?.drop(label);
    for (const key of keys ?? []) this.leavePartition(key, label);
  }

  /**
   * Records the partitions (payload index values, as keys) a label belongs to; ignored unless partitions get
   * graphs. A label without a vector is remembered and joins when its vector is set.
   */
  assignPartitions(label: number, keys: readonly string[]): void {
    if (!this.partitioned) return;
    const before = this.partitionsOf.get(label) ?? [];
    for (const key of before) if (!keys.includes(key)) this.leavePartition(key, label);
    if (keys.length === 0) this.partitionsOf.delete(label);
    else this.partitionsOf.set(label, [...keys]);
    if (!this.has(label)) return;
    for (const key of keys) if (!before.includes(key)) this.queueInPartition(key, label);
  }

  /** Adds waiting vectors to the graphs for about `budgetMs`; returns true while work remains. */
  indexStep(budgetMs: number): boolean {
    const deadline = performance.now() + budgetMs;
    const vectorOf = (label: number) => this.arena.subarray(label * this.dim, (label + 1) * this.dim);
    if (this.globalWaiting()) this.global!.step(vectorOf, deadline);
    for (const key of this.partitionsWaiting) {
      if (performance.now() >= deadline) break;
      if (!this.partitions.get(key)?.step(vectorOf, deadline)) this.partitionsWaiting.delete(key);
    }
    return this.needsIndexing;
  }

  /** The `k` best hits for `query` (already prepared with `prepareVector`). */
  search(query: Float32Array, k: number, options: VectorSearchOptions = {}): Hit[] {
    const { filter } = options;
    const candidateKb = ((filter?.estimate ?? this.stored) * this.dim * 4) / 1024;
    const partition = filter?.partition === undefined ? undefined : this.partitions.get(filter.partition);
    const graph = partition?.built ? partition : this.global?.built ? this.global : null;
    const fullScan =
      options.exact || !graph || (filter !== undefined && candidateKb < this.params.fullScanThresholdKb);
    if (fullScan) return this.exactSearch(query, k, filter?.all());
    const hits = this.graphSearch(graph, query, k, options);
    if (hits.length < k && filter !== undefined && !options.indexedOnly) {
      // A selective filter can starve the graph walk; an exact scan of the allowed set is the guarantee.
      const allowed = filter.all();
      if (allowed.length > hits.length) return this.exactSearch(query, k, allowed);
    }
    return hits;
  }

  /** Exact top-k over the given labels (every stored vector when omitted). */
  exactSearch(query: Float32Array, k: number, labels?: readonly number[]): Hit[] {
    const top = new TopK(k, this.distance);
    const { arena, present, dim, distance } = this;
    if (labels) {
      for (const label of labels) {
        if (present[label] === 1) top.offer(label, scoreAt(distance, query, arena, label * dim));
      }
    } else {
      for (let label = 0; label < this.capacity; label++) {
        if (present[label] === 1) top.offer(label, scoreAt(distance, query, arena, label * dim));
      }
    }
    return top.sorted();
  }

  /**
   * Writes the global graph to `file`; returns the labels still waiting, which the snapshot must record.
   * Partition graphs are not saved: after a restart they are built again in the background.
   */
  saveGraph(file: string): number[] | null {
    return this.global?.save(file) ?? null;
  }

  /** Loads a global graph saved alongside the snapshot just loaded; `pending` lists labels it does not cover. */
  loadGraph(file: string, pending: number[]): void {
    const stillPending = new Set(pending);
    this.global?.load(file, this.allLabels(), (label) => this.has(label) && !stillPending.has(label));
  }

  private graphSearch(graph: HnswGraph, query: Float32Array, k: number, options: VectorSearchOptions) {
    const top = new TopK(k, this.distance);
    const { filter } = options;
    const allowed = filter ? (label: number) => filter.allows(label) : undefined;
    const ef = options.hnswEf ?? this.params.efConstruct;
    for (const label of graph.search(query, k, ef, allowed)) {
      top.offer(label, scoreAt(this.distance, query, this.arena, label * this.dim));
    }
    if (!options.indexedOnly) {
      for (const label of graph.pending) {
        if (!allowed || allowed(label))
          top.offer(label, scoreAt(this.distance, query, this.arena, label * this.dim));
      }
    }
    return top.sorted();
  }

  /** True when the collection is past the indexing threshold and vectors wait for the global graph. */
  private globalWaiting(): boolean {
    return (
      !!this.global &&
      this.global.pending.size > 0 &&
      this.kilobytes(this.stored) > this.params.indexingThresholdKb
    );
  }

  /** Qdrant builds payload graphs for values with more points than a full scan handles well. */
  private wantsPartitionGraph(graph: HnswGraph): boolean {
    return this.kilobytes(graph.size) > this.params.fullScanThresholdKb;
  }

  private kilobytes(vectors: number): number {
    return (vectors * this.dim * 4) / 1024;
  }

  private queueInPartition(key: string, label: number): void {
    let graph = this.partitions.get(key);
    if (!graph) this.partitions.set(key, (graph = this.newGraph(this.params.payloadM)));
    graph.queue(label);
    if (this.wantsPartitionGraph(graph)) this.partitionsWaiting.add(key);
  }

  private leavePartition(key: string, label: number): void {
    const graph = this.partitions.get(key);
    if (!graph) return;
    graph.drop(label);
    if (graph.size === 0) this.partitions.delete(key);
    // A partition that shrank below the threshold is scanned exactly: its waiting labels need no graph.
    if (!this.wantsPartitionGraph(graph)) this.partitionsWaiting.delete(key);
  }

  private newGraph(m: number): HnswGraph {
    const space = this.distance === 'Euclid' ? 'l2' : 'ip';
    return new HnswGraph({ space, dim: this.dim, m, efConstruct: this.params.efConstruct });
  }

  private *allLabels(): Generator<number> {
    for (let label = 0; label < this.capacity; label++) if (this.present[label] === 1) yield label;
  }

  private ensureCapacity(required: number): void {
    if (required <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < required) capacity *= 2;
    const arena = new Float32Array(capacity * this.dim);
    arena.set(this.arena);
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.arena = arena;
    this.present = present;
    this.capacity = capacity;
  }
}
