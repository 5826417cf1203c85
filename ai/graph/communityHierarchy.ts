import { bulkTurnSpent, nextBulkTurn } from '../../platform/timeSlice';
import type { CorpusGraph } from './corpusGraph';
import { inProcessLouvain, type LouvainRunner } from './louvainRunner';

/** A community of entities at one level of the hierarchy (0 = top); `parent` is the enclosing community. */
export interface Community {
  id: string;
  level: number;
  parent: string | null;
  members: string[];
  /** The most connected members' names, for display and community search. */
  title: string;
  /** A short description (extractive, or an LLM's when one is configured). */
  summary: string;
}

/** Hierarchy settings. Defaults: split communities above 40 entities, at most 3 levels, Louvain resolution 1. */
export interface HierarchyOptions {
  maxSize: number;
  maxLevels: number;
  resolution: number;
  /** Where Louvain runs (default: in process; the brain passes a worker thread). */
  louvain: LouvainRunner;
}

const DEFAULTS: HierarchyOptions = { maxSize: 40, maxLevels: 3, resolution: 1, louvain: inProcessLouvain };

/**
 * Communities of the corpus graph as a hierarchy, like GraphRAG's Leiden levels: Louvain
 * (graphology-communities-louvain, seeded so a rebuild is reproducible) over the co-occurrence graph, then
 * each community larger than `maxSize` split again by Louvain on its own subgraph, down to `maxLevels`.
 * `update(changed)` is incremental: only the top-level communities holding a changed entity (and the new
 * entities, placed with their neighbours) are re-clustered; the others keep their ids and summaries. With
 * no communities yet, or a third or more of the entities changed, everything is rebuilt.
 */
export class CommunityHierarchy {
  private readonly communities = new Map<string, Community>();
  private readonly topOf = new Map<string, string>();
  private nextId = 1;
  private readonly options: HierarchyOptions;

  constructor(options: Partial<HierarchyOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Every community, top level first. */
  all(): Community[] {
    return [...this.communities.values()].sort((a, b) => a.level - b.level);
  }

  /** Number of communities at each level. */
  perLevel(): number[] {
    const counts: number[] = [];
    for (const c of this.communities.values()) counts[c.level] = (counts[c.level] ?? 0) + 1;
    return Array.from(counts, (n) => n ?? 0);
  }

  /** The top-level community id of an entity, if any. */
  communityOf(entity: string): string | undefined {
    return this.topOf.get(entity);
  }

  /** Re-clusters after the entities in `changed` moved; returns the communities created (to summarise). */
  async update(graph: CorpusGraph, changed: ReadonlySet<string>): Promise<Community[]> {
    const rebuild = this.communities.size === 0 || changed.size * 3 >= graph.entities.size;
    const affectedTops = new Set<string>();
    const members = new Set<string>();
    if (rebuild) {
      this.communities.clear();
      this.topOf.clear();
      for (const key of graph.entities.keys()) members.add(key);
    } else {
      for (const key of changed) {
        const top = this.topOf.get(key);
        if (top) affectedTops.add(top);
        else if (graph.entities.has(key)) members.add(key);
      }
      for (const top of affectedTops) {
        for (const key of this.communities.get(top)?.members ?? [])
          if (graph.entities.has(key)) members.add(key);
      }
      const doomed = [...this.communities.values()].filter((c) => affectedTops.has(this.rootOf(c)));
      for (const community of doomed) this.communities.delete(community.id);
      for (const key of members) this.topOf.delete(key);
    }
    const created: Community[] = [];
    await this.cluster(graph, [...members], 0, null, created);
    return created;
  }

  private async cluster(
    graph: CorpusGraph,
    keys: string[],
    level: number,
    parent: string | null,
    out: Community[],
  ): Promise<void> {
    const inside = new Set(keys);
    const edges: Array<[string, string, number]> = [];
    const degree = new Map<string, number>();
    // In the shared bulk budget: a rebuild at 20k chunks walks the neighbours of 34,000 entities (and again per
    // level for the large communities), 0.4-1.4 s in one task before (stop 48).
    for (const key of keys) {
      if (bulkTurnSpent()) await nextBulkTurn();
      for (const [other, weight] of graph.neighbours(key)) {
        if (key >= other || !inside.has(other)) continue;
        edges.push([key, other, weight]);
        degree.set(key, (degree.get(key) ?? 0) + 1);
        degree.set(other, (degree.get(other) ?? 0) + 1);
      }
    }
    if (edges.length === 0) return;
    const nodes = keys.filter((key) => degree.has(key));
    const mapping = await this.options.louvain({
      nodes,
      edges,
      resolution: this.options.resolution,
      seed: level + 1,
    });
    // Isolated entities (no edge inside) are not a community of their own.
    const groups = new Map<number, string[]>();
    for (const key of nodes) {
      const group = groups.get(mapping[key]) ?? [];
      groups.set(mapping[key], group);
      group.push(key);
    }
    if (level > 0 && groups.size < 2) return;
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      const community = this.create(graph, degree, group, level, parent);
      out.push(community);
      if (level === 0) for (const key of group) this.topOf.set(key, community.id);
      if (group.length > this.options.maxSize && level + 1 < this.options.maxLevels) {
        await this.cluster(graph, group, level + 1, community.id, out);
      }
    }
  }

  private create(
    graph: CorpusGraph,
    degree: Map<string, number>,
    members: string[],
    level: number,
    parent: string | null,
  ): Community {
    const ranked = [...members].sort(
      (a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || a.localeCompare(b),
    );
    const title = ranked
      .slice(0, 5)
      .map((key) => graph.entities.get(key)?.name ?? key)
      .join(', ');
    const community = { id: `c${this.nextId++}`, level, parent, members, title, summary: title };
    this.communities.set(community.id, community);
    return community;
  }

  private rootOf(community: Community): string {
    let current = community;
    while (current.parent && this.communities.has(current.parent))
      current = this.communities.get(current.parent)!;
    return current.id;
  }
}
