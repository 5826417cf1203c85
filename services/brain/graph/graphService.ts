import type { z } from 'zod';
import type { GraphScope } from '../../../models/GraphEntity';
import type { Clock } from '../../../platform/clock';
import { entityAsOf, searchEntities } from './entityReads';
import { graphError } from './errors';
import { presentEntity, presentFact } from './presenters';
import type { EntityDetailSchema, EntityListSchema } from './schemas';
import type { SubjectGraph } from './subjectGraph';

/**
 * The knowledge graph's reads as other areas (the MCP gateway) call them: the same reads and presenters as the
 * /brain/graph routes. `scope` is `corpus` (the shared indexes' entities) or a memory subject; the caller checks
 * that it may read that subject (a user: their own).
 */
export interface GraphService {
  /** Entities of the scope, most mentioned first; with `q`, those whose name or an alias contains it. */
  entities(
    scope: GraphScope,
    q: string | undefined,
    limit: number,
  ): Promise<z.infer<typeof EntityListSchema>>;
  /** An entity with its relations, the facts valid at `asOf` (default now) and its fact history (404). */
  entity(scope: GraphScope, name: string, asOf?: Date): Promise<z.infer<typeof EntityDetailSchema>>;
}

/** The service interface over the subject graph. */
export function graphService(graph: SubjectGraph, clock: Clock): GraphService {
  return {
    entities: async (scope, q, limit) => ({
      entities: (await searchEntities(graph, scope, q, limit)).map(presentEntity),
    }),
    entity: async (scope, name, asOf = new Date(clock.now())) => {
      const found = await entityAsOf(graph, scope, name, asOf);
      if (!found) throw graphError('GRAPH_ENTITY_NOT_FOUND', `No entity named ${name}`);
      return {
        ...presentEntity(found.entity),
        as_of: asOf.toISOString(),
        relations: found.relations,
        facts: found.facts.map(presentFact),
        history: found.history.map(presentFact),
      };
    },
  };
}
