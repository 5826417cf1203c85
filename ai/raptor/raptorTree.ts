import { performance } from 'node:perf_hooks';
import { bulkTurnSpent, nextBulkTurn } from '../../platform/timeSlice';
import {
  chunkDisplayTitle,
  embeddingTextOf,
  type ChunkRecord,
  type IndexName,
} from '../../models/corpusRecords';
import type { ClusterSummarizer } from './clusterSummary';
import type { RaptorNode, TreeUpdate } from './raptorNode';
import { centroidOf, cosine, sphericalKMeans } from './sphericalKMeans';

/** Tree shape. Defaults: about 8 children a node (at most 16), 5 levels with the leaves, rebuild at a third. */
export interface RaptorTreeOptions {
  /** Target children per summary: a level of n nodes is clustered into ⌈n / branching⌉ groups. */
  branching: number;
  /** A group or node with more children is split again. */
  maxChildren: number;
  /** Levels including the leaves (the "up to 5"). */
  maxLevels: number;
  /** Share of the leaves changed in one update from which the summary levels are rebuilt from scratch. */
  rebuildShare: number;
}

/** What a tree needs: an embedder of its space, a summariser and fresh node ids. */
export interface RaptorTreeDeps {
  embed: (texts: string[]) => Promise<Float32Array[]>;
  summarize: ClusterSummarizer;
  newId: (index: IndexName, level: number) => string;
}

const DEFAULTS: RaptorTreeOptions = { branching: 8, maxChildren: 16, maxLevels: 5, rebuildShare: 1 / 3 };

/** A document's new chunks (an empty list removes the document). */
export interface DocumentLeaves {
  documentId: string;
  chunks: readonly ChunkRecord[];
}

/**
 * The RAPTOR tree of one index (Sarthi et al. 2024): leaves are chunks; a level's nodes are clustered by
 * spherical k-means on their vectors, each cluster summarised into a node of the next level, recursively,
 * until a level has at most `branching` nodes or `maxLevels` is reached. Incremental: a changed document's
 * chunks are compared by id (an unchanged chunk keeps its id, so its leaf and branch stay); removed leaves
 * leave their parents, new leaves join the parent whose centroid is nearest, and only the parents touched —
 * then their ancestors — are re-summarised, when the tree settles. A parent grown past `maxChildren` is split, one left empty is
 * removed. When a `rebuildShare` of the leaves changed at once (the start-up rebuild), the summary levels are
 * built from scratch.
 */
export class RaptorTree {
  readonly nodes = new Map<string, RaptorNode>();
  private levels: Set<string>[] = [new Set()];
  private readonly leavesOf = new Map<string, string[]>();
  private readonly options: RaptorTreeOptions;
  private update: TreeUpdate = { written: [], removed: [], rebuilt: false };
  /** Summary nodes whose children changed since their summary was written (see `settle`). */
  private readonly stale = new Set<string>();
  private staleSince = 0;

  constructor(
    readonly index: IndexName,
    private readonly deps: RaptorTreeDeps,
    options: Partial<RaptorTreeOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Node counts per level (index 0: the leaves), without empty top levels. */
  nodesPerLevel(): number[] {
    const counts = this.levels.map((level) => level.size);
    while (counts.length > 1 && counts[counts.length - 1] === 0) counts.pop();
    return counts;
  }

  /** True when the tree holds this document. */
  hasDocument(documentId: string): boolean {
    return this.leavesOf.has(documentId);
  }

  /** Summary nodes waiting to be re-summarised, and since when (`performance.now()`) the oldest has waited. */
  staleness(): { nodes: number; since: number } {
    return { nodes: this.stale.size, since: this.staleSince };
  }

  /**
   * Applies documents' changes to the leaves, then to the levels above; returns what to store. Membership and
   * centroids follow at once and new summary nodes are written, but an existing node whose children changed is
   * only marked stale: `settle` re-summarises it later, once for a whole burst of changes (a bulk ingest had
   * re-summarised each parent for nearly every document filed under it).
   */
  async apply(changes: readonly DocumentLeaves[]): Promise<TreeUpdate> {
    this.update = { written: [], removed: [], rebuilt: false };
    const removed: RaptorNode[] = [];
    const fresh: ChunkRecord[] = [];
    for (const { documentId, chunks } of changes) {
      const keep = new Set(chunks.map((c) => c.id));
      for (const id of this.leavesOf.get(documentId) ?? []) {
        if (keep.has(id)) continue;
        removed.push(this.nodes.get(id)!);
        this.dropNode(id, 0);
      }
      for (const chunk of chunks) if (!this.nodes.has(chunk.id)) fresh.push(chunk);
      if (chunks.length > 0) this.leavesOf.set(documentId, [...keep]);
      else this.leavesOf.delete(documentId);
    }
    const vectors = await this.deps.embed(fresh.map(embeddingTextOf));
    const added = fresh.map((chunk, i) => this.addNode(leafOf(chunk, vectors[i])));
    const changed = removed.length + added.length;
    if (changed === 0) return this.update;
    if (
      this.levels.length < 2 ||
      this.levels[1].size === 0 ||
      changed >= this.options.rebuildShare * this.levels[0].size
    ) {
      await this.rebuild();
    } else {
      await this.propagate(0, removed, added);
    }
    return this.takeUpdate();
  }

  /**
   * Re-summarises the stale nodes, level by level from the bottom: a node's new summary changes its vector, so its
   * parent is re-summarised in turn, up to the top. Returns what to store.
   */
  async settle(): Promise<TreeUpdate> {
    this.update = { written: [], removed: [], rebuilt: false };
    for (let level = 1; level < this.levels.length && this.stale.size > 0; level++) {
      const nodes = [...this.stale].map((id) => this.nodes.get(id)!).filter((node) => node.level === level);
      await this.summarise(nodes);
      for (const node of nodes) {
        this.stale.delete(node.id);
        if (node.parent) this.stale.add(node.parent);
      }
    }
    this.stale.clear();
    return this.takeUpdate();
  }

  private takeUpdate(): TreeUpdate {
    this.update.written = [...new Set(this.update.written)].filter((n) => this.nodes.get(n.id) === n);
    return this.update;
  }

  /** Drops every summary level and clusters the leaves again. */
  private async rebuild(): Promise<void> {
    for (let level = 1; level < this.levels.length; level++) {
      for (const id of this.levels[level]) this.dropNode(id, level);
    }
    this.levels.length = 1;
    for (const id of this.levels[0]) this.nodes.get(id)!.parent = null;
    this.update.rebuilt = true;
    await this.buildAbove(0);
  }

  /** Clusters `level` and the levels it creates until a level is small enough or the tree is full. */
  private async buildAbove(level: number): Promise<void> {
    let current = [...this.levels[level]].map((id) => this.nodes.get(id)!);
    while (current.length > this.options.branching && level + 1 < this.options.maxLevels) {
      const groups = await this.partition(current, Math.ceil(current.length / this.options.branching));
      current = await this.createParents(level + 1, groups);
      level++;
    }
  }

  /**
   * Carries one level's changes to the next: `removed` nodes leave their parents, `added` ones join the
   * nearest parent; parents that lost or gained children get new centroids and are marked stale (or are split or
   * removed); then recurses.
   */
  private async propagate(level: number, removed: RaptorNode[], added: RaptorNode[]): Promise<void> {
    if (removed.length + added.length === 0) return;
    const up = level + 1;
    if (up >= this.levels.length || this.levels[up].size === 0) {
      // `level` is the top: grow the tree when it has become wide.
      if (this.levels[level].size > this.options.maxChildren && up < this.options.maxLevels)
        await this.buildAbove(level);
      return;
    }
    const dirty = new Set<string>();
    for (const node of removed) {
      const parent = node.parent ? this.nodes.get(node.parent) : undefined;
      parent?.children.delete(node.id);
      if (parent) dirty.add(parent.id);
    }
    const nearest = this.nearestAt(up);
    // A round's hundreds of new leaves each search the tree for a parent: 0.6 s in one task at 20k chunks (stop 48).
    for (const node of added) {
      if (bulkTurnSpent()) await nextBulkTurn();
      const best = nearest(node.vector);
      best.children.add(node.id);
      node.parent = best.id;
      dirty.add(best.id);
    }
    const next = { removed: [] as RaptorNode[], added: [] as RaptorNode[] };
    for (const id of dirty) {
      const node = this.nodes.get(id)!;
      const children = [...node.children].map((child) => this.nodes.get(child)!);
      if (children.length === 0 || children.length > this.options.maxChildren) {
        next.removed.push(node);
        this.dropNode(id, up);
        if (children.length > 0) {
          const groups = await this.partition(children, Math.ceil(children.length / this.options.branching));
          next.added.push(...(await this.createParents(up, groups)));
        }
      } else {
        node.centroid = centroidOf(
          children.map((child) => child.vector),
          children[0].vector.length,
        );
        if (this.stale.size === 0) this.staleSince = performance.now();
        this.stale.add(node.id);
      }
    }
    await this.propagate(up, next.removed, next.added);
  }

  /**
   * A finder of the node of `level` whose centroid is nearest a vector. A level of up to `EXACT_UP_TO` nodes is
   * scanned whole; a wider one is reached from the top of the tree down, keeping the `BEAM` nearest nodes of each
   * level and looking only at their children (and at the level's nodes without a parent), as hierarchical k-means
   * assigns a point. The whole scan cost a new leaf a cosine with every level-1 node (an eighth of the leaves), so
   * a bulk ingest's RAPTOR upkeep grew with the square of the corpus (bench/README.md, issue 37, stop 45).
   */
  private nearestAt(level: number): (vector: Float32Array) => RaptorNode {
    const all = [...this.levels[level]].map((id) => this.nodes.get(id)!);
    let top = this.levels.length - 1;
    while (top > level && this.levels[top].size === 0) top--;
    if (all.length <= EXACT_UP_TO || top === level) return (vector) => nearestOf(vector, all);
    // Per level from `level` to the one below the top: its nodes no parent of the level above reaches.
    const orphans: RaptorNode[][] = [];
    for (let at = level; at < top; at++)
      orphans[at] = [...this.levels[at]]
        .map((id) => this.nodes.get(id)!)
        .filter((node) => !node.parent || !this.nodes.has(node.parent));
    const roots = [...this.levels[top]].map((id) => this.nodes.get(id)!);
    return (vector) => {
      let frontier = roots;
      for (let at = top; at > level; at--) {
        const beam = nearestFew(vector, frontier, BEAM);
        const below: RaptorNode[] = [...orphans[at - 1]];
        for (const node of beam)
          for (const id of node.children) {
            const child = this.nodes.get(id);
            if (child) below.push(child);
          }
        frontier = below.length > 0 ? below : all;
      }
      return nearestOf(vector, frontier);
    };
  }

  /** Groups nodes by k-means into about `k` groups of at most `maxChildren` (a larger group is split again). */
  private async partition(nodes: RaptorNode[], k: number): Promise<RaptorNode[][]> {
    const groups = (
      await sphericalKMeans(
        nodes.map((n) => n.vector),
        k,
      )
    ).map((rows) => rows.map((r) => nodes[r]));
    const out: RaptorNode[][] = [];
    for (const group of groups) {
      if (group.length <= this.options.maxChildren) out.push(group);
      else if (groups.length > 1)
        out.push(...(await this.partition(group, Math.ceil(group.length / this.options.branching))));
      // Identical vectors k-means cannot separate: cut in order.
      else
        for (let i = 0; i < group.length; i += this.options.branching)
          out.push(group.slice(i, i + this.options.branching));
    }
    return out;
  }

  /** Makes one summary node per group at `level` (summaries, then their embeddings in one call). */
  private async createParents(level: number, groups: RaptorNode[][]): Promise<RaptorNode[]> {
    while (this.levels.length <= level) this.levels.push(new Set());
    const parents = groups.map((group) => {
      const node: RaptorNode = {
        id: this.deps.newId(this.index, level),
        index: this.index,
        level,
        parent: null,
        children: new Set(group.map((child) => child.id)),
        title: '',
        text: '',
        vector: new Float32Array(0),
        centroid: new Float32Array(0),
        documentId: null,
      };
      for (const child of group) child.parent = node.id;
      return this.addNode(node);
    });
    await this.summarise(parents);
    return parents;
  }

  /** (Re-)writes nodes' summaries, vectors and centroids from their children, in the shared bulk budget. */
  private async summarise(nodes: RaptorNode[]): Promise<void> {
    if (nodes.length === 0) return;
    for (const node of nodes) {
      // The offline summariser is synchronous under its promise: without a real turn, a level is one long step.
      if (bulkTurnSpent()) await nextBulkTurn();
      const children = [...node.children].map((id) => this.nodes.get(id)!);
      node.text = await this.deps.summarize(
        children.map((child) => ({ title: child.title, text: child.text })),
        node.level,
      );
      node.centroid = centroidOf(
        children.map((child) => child.vector),
        children[0].vector.length,
      );
    }
    const vectors = await this.deps.embed(nodes.map((node) => node.text));
    nodes.forEach((node, i) => (node.vector = vectors[i]));
    this.update.written.push(...nodes);
  }

  private addNode(node: RaptorNode): RaptorNode {
    while (this.levels.length <= node.level) this.levels.push(new Set());
    this.nodes.set(node.id, node);
    this.levels[node.level].add(node.id);
    return node;
  }

  private dropNode(id: string, level: number): void {
    this.nodes.delete(id);
    this.stale.delete(id);
    this.levels[level].delete(id);
    if (level > 0) this.update.removed.push(id);
  }
}

/** A level up to this wide is scanned whole for a new node's parent; a wider one is searched from the top. */
const EXACT_UP_TO = 64;
/** Nodes kept per level when searching a parent from the top. */
const BEAM = 4;

/** The node whose centroid is nearest `vector` (the first of equals); `nodes` is not empty. */
function nearestOf(vector: Float32Array, nodes: readonly RaptorNode[]): RaptorNode {
  let best = nodes[0];
  let bestScore = -Infinity;
  for (const node of nodes) {
    const score = cosine(vector, node.centroid);
    if (score > bestScore) [best, bestScore] = [node, score];
  }
  return best;
}

/** The `count` nodes whose centroids are nearest `vector`. */
function nearestFew(vector: Float32Array, nodes: readonly RaptorNode[], count: number): RaptorNode[] {
  if (nodes.length <= count) return [...nodes];
  return nodes
    .map((node) => ({ node, score: cosine(vector, node.centroid) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, count)
    .map(({ node }) => node);
}

function leafOf(chunk: ChunkRecord, vector: Float32Array): RaptorNode {
  return {
    id: chunk.id,
    index: chunk.index,
    level: 0,
    parent: null,
    children: new Set(),
    title: chunkDisplayTitle(chunk),
    text: chunk.text,
    vector,
    centroid: vector,
    documentId: chunk.documentId,
  };
}
