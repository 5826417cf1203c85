import { z } from 'zod';
import { CommunityListSchema, NeighboursSchema, type CorpusGraphReads } from '../../brain';
import { ACCESS, READ_ONLY, defineTool, type AnyTool } from '../toolDefinition';
import { pageLimit } from './caller';

/**
 * The documents' knowledge graph (the GRAPH strategy's entity co-occurrence graph and its GraphRAG-style community
 * hierarchy) as tools of the graph worker: neighbours of an entity, and communities. The same access as the other
 * graph reads (identity tier 1 and the service token).
 */
export function corpusGraphTools(corpus: CorpusGraphReads): AnyTool[] {
  return [
    defineTool({
      name: 'graph_neighbours',
      title: 'Neighbours of an entity in the documents’ graph',
      description:
        'The entities that appear together with one entity in the indexed documents, strongest first (weight: ' +
        'chunks they share), and the community it belongs to. Names match as the graph keys them (case and ' +
        'inflection do not matter). GRAPH_ENTITY_NOT_FOUND when the documents never mention it.',
      input: z.strictObject({
        name: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .meta({ description: 'The entity, e.g. "Colyseus" or "mongo"' }),
        limit: pageLimit(50, 10),
      }),
      output: NeighboursSchema,
      annotations: READ_ONLY,
      access: ACCESS.registered,
      handler: ({ name, limit }) => Promise.resolve(corpus.neighbours(name, limit)),
      summarise: ({ entity, neighbours }) =>
        neighbours.length === 0
          ? `${entity.name} (${entity.type}) has no neighbours.`
          : `${entity.name} (${entity.type}) appears with: ` +
            neighbours.map((neighbour) => `${neighbour.name} (${neighbour.weight})`).join(', ') +
            '.',
    }),
    defineTool({
      name: 'graph_communities',
      title: 'Communities of the documents’ graph',
      description:
        'Clusters of entities that belong together in the indexed documents (Louvain, as a hierarchy: level 0 ' +
        'at the top), each with a title, a short summary and its most mentioned members. Filter by level, or by ' +
        'q in a title or member name. Good for an overview of a topic before searching.',
      input: z.strictObject({
        q: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .optional()
          .meta({ description: 'Part of a title or member name' }),
        level: z.number().int().min(0).max(5).optional().meta({ description: 'Only this level (0 = top)' }),
        limit: pageLimit(100, 20),
      }),
      output: CommunityListSchema,
      annotations: READ_ONLY,
      access: ACCESS.registered,
      handler: ({ q, level, limit }) => Promise.resolve(corpus.communities({ q, level, limit })),
      summarise: ({ communities, total }) =>
        total === 0
          ? 'No communities (the graph is empty or still building).'
          : `${total} communities; ` +
            communities
              .slice(0, 8)
              .map(
                (community) => `${community.id} L${community.level} ${community.title} (${community.size})`,
              )
              .join('; ') +
            '.',
    }),
  ];
}
