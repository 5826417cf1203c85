import { HierarchicalNSW } from 'hnswlib-node';
import { scoreAt, type Distance } from './distance';
import { TopK, type Hit } from './topK';

/** HNSW and planner settings of one vector, in Qdrant's units (kilobytes of float32 vectors). */
export interface IndexParams {
  m: number;
  efConstruct: number;
  /** Below this many KB of candidate vectors a filtered search scans them exactly instead of walking HNSW. */
  fullScanThresholdKb: number;
  /** Past this many KB of stored vectors the HNSW graph is built; 0 disables indexing. */
  indexingThresholdKb: number;
}

/**
 * The labels a request's filter allows, as the planner sees them: an estimate of how many there are (to
 * choose between an exact scan and a filtered graph walk), a per-label test the graph walk calls lazily, and
 * the full list for exact scans.
 */
export interface CandidateFilter {
  estimate: number;
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
const HNSW_SEED = 100;

/**
 * Storage and search for one dense vector of a collection, addressed by the collection's point labels.
 * Vectors live in one growable Float32Array (exact scans and scoring read it directly); once the collection
 * passes the indexing threshold an HNSW graph (hnswlib) is built in the background from the `pending` set,
 * and searches merge graph hits with an exact scan of what is still pending, so results never miss a point.
 */
export class VectorIndex {
  private arena: Float32Array;
  private present: Uint8Array;
  private inGraph: Uint8Array;
  private capacity = INITIAL_CAPACITY;
  private stored = 0;
  private graph: HierarchicalNSW | null = null;
  private readonly pending = new Set<number>();

  constructor(
    readonly dim: number,
    readonly distance: Distance,
    private readonly params: IndexParams,
  ) {
    this.arena = new Float32Array(this.capacity * dim);
    this.present = new Uint8Array(this.capacity);
    this.inGraph = new Uint8Array(this.capacity);
  }

  /** Number of stored vectors. */
  get size(): number {
    return this.stored;
  }

  /** Number of vectors searchable through the HNSW graph (Qdrant's `indexed_vectors_count`). */
  get indexedCount(): number {
    return this.graph ? this.stored - this.pending.size : 0;
  }

  /** True while vectors wait to be added to a graph that should exist. */
  get needsIndexing(): boolean {
    return this.wantsGraph() && this.pending.size > 0;
  }

  has(label: number): boolean {
    return label < this.capacity && this.present[label] === 1;
  }

  /** The stored (for Cosine: normalised) vector of a label. */
  vector(label: number): Float32Array {
    return this.arena.slice(label * this.dim, (label + 1) * this.dim);
  }

  /** Stores or replaces a label's vector; the graph picks it up on the next indexing step. */
  set(label: number, vector: Float32Array): void {
    this.ensureCapacity(label + 1);
    this.arena.set(vector, label * this.dim);
    if (this.present[label] === 0) this.stored++;
    this.present[label] = 1;
    this.detachFromGraph(label);
    this.pending.add(label);
  }

  remove(label: number): void {
    if (!this.has(label)) return;
    this.present[label] = 0;
    this.stored--;
    this.detachFromGraph(label);
    this.pending.delete(label);
  }

  /** Adds pending vectors to the graph for about `budgetMs`; returns true while work remains. */
  indexStep(budgetMs: number): boolean {
    if (!this.needsIndexing) return false;
    const graph = this.ensureGraph();
    const deadline = performance.now() + budgetMs;
    for (const label of this.pending) {
      if (graph.getCurrentCount() >= graph.getMaxElements()) graph.resizeIndex(graph.getMaxElements() * 2);
      graph.addPoint(Array.from(this.arena.subarray(label * this.dim, (label + 1) * this.dim)), label);
      this.inGraph[label] = 1;
      this.pending.delete(label);
      if (performance.now() >= deadline) break;
    }
    return this.pending.size > 0;
  }

  /** The `k` best hits for `query` (already prepared with `prepareVector`). */
  search(query: Float32Array, k: number, options: VectorSearchOptions = {}): Hit[] {
    const { filter } = options;
    const candidateKb = ((filter?.estimate ?? this.stored) * this.dim * 4) / 1024;
    const graph = this.graph;
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

  /** Writes the graph to `file`; returns the labels still pending, which the snapshot must record. */
  saveGraph(file: string): number[] | null {
    if (!this.graph) return null;
    this.graph.writeIndexSync(file);
    return [...this.pending];
  }

  /** Loads a graph saved alongside the snapshot just loaded; `pending` lists labels it does not cover. */
  loadGraph(file: string, pending: number[]): void {
    const graph = new HierarchicalNSW(this.distance === 'Euclid' ? 'l2' : 'ip', this.dim);
    graph.readIndexSync(file);
    const stillPending = new Set(pending);
    this.pending.clear();
    for (const label of graph.getIdsList()) {
      if (this.has(label) && !stillPending.has(label)) {
        this.inGraph[label] = 1;
      } else {
        markDeletedQuietly(graph, label);
      }
    }
    for (const label of this.allLabels()) if (this.inGraph[label] === 0) this.pending.add(label);
    this.graph = graph;
  }

  private graphSearch(graph: HierarchicalNSW, query: Float32Array, k: number, options: VectorSearchOptions) {
    const top = new TopK(k, this.distance);
    const { filter } = options;
    const allowed = filter ? (label: number) => filter.allows(label) : undefined;
    const graphSize = graph.getCurrentCount();
    if (graphSize > 0) {
      graph.setEf(Math.max(options.hnswEf ?? this.params.efConstruct, k));
      const result = graph.searchKnn(Array.from(query), Math.min(k, graph.getMaxElements()), allowed);
      for (const label of result.neighbors) {
        top.offer(label, scoreAt(this.distance, query, this.arena, label * this.dim));
      }
    }
    if (!options.indexedOnly) {
      for (const label of this.pending) {
        if (!allowed || allowed(label))
          top.offer(label, scoreAt(this.distance, query, this.arena, label * this.dim));
      }
    }
    return top.sorted();
  }

  private wantsGraph(): boolean {
    const { indexingThresholdKb } = this.params;
    return indexingThresholdKb > 0 && (this.stored * this.dim * 4) / 1024 > indexingThresholdKb;
  }

  private ensureGraph(): HierarchicalNSW {
    if (this.graph) return this.graph;
    const graph = new HierarchicalNSW(this.distance === 'Euclid' ? 'l2' : 'ip', this.dim);
    graph.initIndex(
      Math.max(this.capacity, INITIAL_CAPACITY),
      this.params.m,
      this.params.efConstruct,
      HNSW_SEED,
    );
    this.graph = graph;
    return graph;
  }

  private detachFromGraph(label: number): void {
    if (this.graph && this.inGraph[label] === 1) {
      this.graph.markDelete(label);
      this.inGraph[label] = 0;
    }
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
    const inGraph = new Uint8Array(capacity);
    inGraph.set(this.inGraph);
    this.arena = arena;
    this.present = present;
    this.inGraph = inGraph;
    this.capacity = capacity;
  }
}

function markDeletedQuietly(graph: HierarchicalNSW, label: number): void {
  try {
    graph.markDelete(label);
  } catch {
    // Already marked deleted when the graph was saved: nothing to do.
  }
}
