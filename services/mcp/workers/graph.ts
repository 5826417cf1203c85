import { z } from 'zod';
import type { GraphScope } from '../../../models/GraphEntity';
import { mcpHttpError } from '../errors';
import type { Principal } from '../../../access/principal';
import type { CorpusGraphReads, GraphService } from '../../brain';
import { EntityDetailSchema, EntityListSchema } from '../../brain';
import { userSubject } from '../../brain';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { pageLimit } from './caller';
import { corpusGraphTools } from './corpusGraph';

const ScopeSchema = z.enum(['corpus', 'mine']).default('corpus').meta({
  description:
    'corpus (default): the entities of the shared knowledge base; mine: those of your own memories (users only)',
});

/** The graph scope a caller reads: the corpus, or their own memory subject (never another's). */
function scopeOf(scope: 'corpus' | 'mine', caller: Principal): GraphScope {
  if (scope === 'corpus') return 'corpus';
  if (caller.kind !== 'user') {
    throw mcpHttpError(
      'GRAPH_SCOPE_FORBIDDEN',
      'The service token has no memories of its own: use scope corpus',
    );
  }
  return userSubject(caller.userId.toHexString()) as GraphScope;
}

/**
 * The graph worker: entities of the knowledge graph (the corpus's, or the caller's own from their memories) with
 * their relations and bi-temporal facts, through the brain's GraphService. Access as `/brain/graph`: identity
 * tier 1 and the service token.
 */
export function graphWorker(graph: GraphService, corpus?: CorpusGraphReads): Worker {
  return {
    name: 'graph',
    description:
      'The knowledge graph: entities, how they relate, the facts about them over time, and the documents’ ' +
      'entity neighbours and communities.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'graph_entities',
        title: 'Find entities in the knowledge graph',
        description:
          'Entities (people, places, components, concepts) most mentioned first; with q, those whose name or an ' +
          'alias contains it. Follow up with graph_entity for relations and facts.',
        input: z.strictObject({
          q: z.string().trim().min(1).max(200).optional().meta({ description: 'Part of a name or alias' }),
          scope: ScopeSchema,
          limit: pageLimit(100, 20),
        }),
        output: EntityListSchema,
        annotations: READ_ONLY,
        access: ACCESS.registered,
        handler: ({ q, scope, limit }, { caller }) => graph.entities(scopeOf(scope, caller), q, limit),
        summarise: ({ entities }) =>
          entities.length === 0
            ? 'No entities.'
            : `${entities.length} entities: ` +
              entities
                .slice(0, 10)
                .map((entity) => `${entity.name} (${entity.type}, ${entity.mention_count} mentions)`)
                .join(', ') +
              '.',
      }),
      defineTool({
        name: 'graph_entity',
        title: 'An entity, its relations and facts',
        description:
          'One entity by name or alias: the entities it relates to (by weight), the facts about it valid at ' +
          'as_of (default now: bi-temporal, so you can ask what was true then), and its whole fact history. ' +
          'GRAPH_ENTITY_NOT_FOUND when there is none.',
        input: z.strictObject({
          name: z.string().trim().min(1).max(200).meta({ description: 'The entity’s name or an alias' }),
          scope: ScopeSchema,
          as_of: z.iso.datetime().optional().meta({ description: 'The facts valid then (ISO 8601)' }),
        }),
        output: EntityDetailSchema,
        annotations: READ_ONLY,
        access: ACCESS.registered,
        handler: ({ name, scope, as_of: asOf }, { caller }) =>
          graph.entity(scopeOf(scope, caller), name, asOf ? new Date(asOf) : undefined),
        summarise: (entity) =>
          `${entity.name} (${entity.type}): ${entity.mention_count} mentions, ${entity.relations.length} relations, ` +
          `${entity.facts.length} facts valid at ${entity.as_of}` +
          (entity.relations.length
            ? `; related to ${entity.relations
                .slice(0, 5)
                .map((relation) => relation.entity)
                .join(', ')}.`
            : '.'),
      }),
      ...(corpus ? corpusGraphTools(corpus) : []),
    ],
  };
}
