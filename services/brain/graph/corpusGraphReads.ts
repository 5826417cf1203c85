import type { z } from 'zod';
import { graphKey } from '../../../ai/graph/entityExtractor';
import type { GraphIndex } from '../../../ai/graph/graphIndex';
import { graphError } from './errors';
import type { CommunityListSchema, NeighboursSchema } from './corpusGraphSchemas';

/**
 * Reads of the documents' knowledge graph (the GRAPH strategy's co-occurrence graph and its community hierarchy)
 * as other areas (the MCP gateway) call them. In memory, so no store round trip.
 */
export interface CorpusGraphReads {
  /** An entity (by name, matched as the graph keys it) and its strongest co-occurrence neighbours (404). */
  neighbours(name: string, limit: number): z.infer<typeof NeighboursSchema>;
  /** Communities, top level first, biggest first; with `level` only that level, with `q` those whose title or members hold it. */
  communities(query: { level?: number; q?: string; limit: number }): z.infer<typeof CommunityListSchema>;
}

/** The reads over the brain's graph index. */
export function corpusGraphReads(index: GraphIndex): CorpusGraphReads {
  const { graph, communities } = index;
  const nameOf = (key: string) => graph.entities.get(key)?.name ?? key;
  const mentions = (key: string) => graph.entities.get(key)?.mentionCount ?? 0;
  return {
    neighbours(name, limit) {
      const key = graphKey(name);
      const node = graph.entities.get(key);
      if (!node)
        throw graphError('GRAPH_ENTITY_NOT_FOUND', `No entity named ${name} in the documents' graph`);
      const neighbours = [...graph.neighbours(key).entries()]
        .filter(([other, weight]) => weight > 0 && graph.entities.has(other))
        .sort((a, b) => b[1] - a[1] || nameOf(a[0]).localeCompare(nameOf(b[0])))
        .slice(0, limit)
        .map(([other, weight]) => {
          const neighbour = graph.entities.get(other)!;
          return {
            name: neighbour.name,
            type: neighbour.type,
            mention_count: neighbour.mentionCount,
            weight,
          };
        });
      return {
        entity: {
          name: node.name,
          type: node.type,
          mention_count: node.mentionCount,
          community: communities.communityOf(key) ?? null,
        },
        neighbours,
      };
    },
    communities({ level, q, limit }) {
      const needle = q?.toLowerCase();
      const matching = communities
        .all()
        .filter((community) => level === undefined || community.level === level)
        .filter(
          (community) =>
            !needle ||
            community.title.toLowerCase().includes(needle) ||
            community.members.some((member) => nameOf(member).toLowerCase().includes(needle)),
        )
        .sort((a, b) => a.level - b.level || b.members.length - a.members.length || a.id.localeCompare(b.id));
      return {
        communities: matching.slice(0, limit).map((community) => ({
          id: community.id,
          level: community.level,
          parent: community.parent,
          title: community.title,
          summary: community.summary,
          size: community.members.length,
          members: [...community.members]
            .sort((a, b) => mentions(b) - mentions(a) || a.localeCompare(b))
            .slice(0, 10)
            .map(nameOf),
        })),
        total: matching.length,
      };
    },
  };
}
