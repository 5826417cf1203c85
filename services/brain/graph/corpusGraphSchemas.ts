import { z } from 'zod';

const NodeSchema = z.object({
  name: z.string(),
  type: z.string(),
  mention_count: z.number().int(),
});

/** An entity of the documents' co-occurrence graph with its nearest neighbours. */
export const NeighboursSchema = z
  .object({
    entity: NodeSchema.extend({
      community: z.string().nullable().meta({ description: 'Its top-level community id, if clustered' }),
    }),
    neighbours: z.array(
      NodeSchema.extend({
        weight: z.number().int().meta({ description: 'Chunks the two entities share' }),
      }),
    ),
  })
  .meta({ id: 'GraphNeighbours' });

/** Communities of the documents' graph (GraphRAG-style hierarchy: level 0 at the top). */
export const CommunityListSchema = z
  .object({
    communities: z.array(
      z.object({
        id: z.string(),
        level: z.number().int(),
        parent: z.string().nullable(),
        title: z.string(),
        summary: z.string(),
        size: z.number().int().meta({ description: 'Member entities' }),
        members: z.array(z.string()).meta({ description: 'The most mentioned members (up to 10)' }),
      }),
    ),
    total: z.number().int(),
  })
  .meta({ id: 'GraphCommunities' });
