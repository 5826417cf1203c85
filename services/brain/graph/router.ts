import type { Request, RequestHandler } from 'express';
import type { GraphScope } from '../../../models/GraphEntity';
import type { Clock } from '../../../platform/clock';
import type { ApiRoutes } from '../../../platform/http/routes';
import { subjectOf } from '../memory/subjectAccess';
import { entityAsOf, searchEntities } from './entityReads';
import { graphError } from './errors';
import { presentEntity, presentFact } from './presenters';
import {
  EntityDetailSchema,
  EntityListQuerySchema,
  EntityListSchema,
  EntityParamsSchema,
  EntityQuerySchema,
} from './schemas';
import type { SubjectGraph } from './subjectGraph';

/** What the graph routes need. */
export interface GraphRouteDependencies {
  graph: SubjectGraph;
  clock: Clock;
  requireBrainAuth: RequestHandler[];
}

/** `corpus` for the shared graph, else the memory subject the caller may read (users: their own). */
function scopeOf(req: Request, requested: string | undefined): GraphScope {
  return requested === 'corpus' ? 'corpus' : (subjectOf(req, requested) as GraphScope);
}

/** The knowledge graph's entities (SPEC 2.9 Entity with mention_count) and bi-temporal facts. */
export function registerGraphRoutes(routes: ApiRoutes, deps: GraphRouteDependencies): void {
  const { graph } = deps;
  const common = { tags: ['brain-graph'], security: 'bearer' as const, middleware: deps.requireBrainAuth };

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/graph/entities',
    summary: 'Entities of a subject (or the corpus), most mentioned first; q filters by name or alias',
    request: { query: EntityListQuerySchema },
    responses: { 200: { description: 'Entities', schema: EntityListSchema } },
    handler: async ({ query, req }) => {
      const entities = await searchEntities(graph, scopeOf(req, query.subject), query.q, query.limit ?? 20);
      return { status: 200, body: { entities: entities.map(presentEntity) } };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/graph/entities/:name',
    summary: 'An entity with its relations and the facts valid at as_of (default now), and its fact history',
    request: { params: EntityParamsSchema, query: EntityQuerySchema },
    responses: {
      200: { description: 'The entity', schema: EntityDetailSchema },
      404: { description: 'GRAPH_ENTITY_NOT_FOUND' },
    },
    handler: async ({ params, query, req }) => {
      const asOf = query.as_of ? new Date(query.as_of) : new Date(deps.clock.now());
      const found = await entityAsOf(graph, scopeOf(req, query.subject), params.name, asOf);
      if (!found) throw graphError('GRAPH_ENTITY_NOT_FOUND', `No entity named ${params.name}`);
      const body = {
        ...presentEntity(found.entity),
        as_of: asOf.toISOString(),
        relations: found.relations,
        facts: found.facts.map(presentFact),
        history: found.history.map(presentFact),
      };
      return { status: 200, body };
    },
  });
}
