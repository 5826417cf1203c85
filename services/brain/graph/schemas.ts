import { z } from 'zod';
import { SubjectSchema } from '../memory/schemas';

const timestamp = z.iso.datetime();

/** Whose graph: a memory subject (users: their own, the default) or `corpus` (the shared indexes' entities). */
const ScopeSchema = z.union([SubjectSchema, z.literal('corpus')]);

export const EntityListQuerySchema = z.object({
  q: z.string().trim().min(1).max(200).optional(),
  subject: ScopeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const EntityQuerySchema = z.object({ subject: ScopeSchema.optional(), as_of: timestamp.optional() });
export const EntityParamsSchema = z.object({ name: z.string().trim().min(1).max(200) });

export const EntitySchema = z
  .object({
    name: z.string(),
    type: z.string(),
    aliases: z.array(z.string()),
    mention_count: z.number().int(),
    first_seen: timestamp,
    last_seen: timestamp,
  })
  .meta({ id: 'Entity', description: 'SPEC 2.9 Entity' });

export const FactSchema = z
  .object({
    id: z.string(),
    subject: z.string(),
    predicate: z.string(),
    object: z.string(),
    object_is_entity: z.boolean(),
    valid_from: timestamp,
    valid_to: timestamp.nullable(),
    recorded_at: timestamp,
    expired_at: timestamp.nullable(),
    source_memory_ids: z.array(z.string()),
  })
  .meta({
    id: 'GraphFact',
    description: 'A bi-temporal fact: valid_from/valid_to in the world, recorded_at/expired_at in the system',
  });

export const EntityListSchema = z.object({ entities: z.array(EntitySchema) }).meta({ id: 'EntityList' });

export const EntityDetailSchema = EntitySchema.extend({
  as_of: timestamp,
  relations: z.array(z.object({ kind: z.string(), entity: z.string(), weight: z.number() })),
  facts: z.array(FactSchema).meta({ description: 'Facts about the entity valid at as_of' }),
  history: z.array(FactSchema).meta({ description: 'Every fact about the entity, closed ones included' }),
}).meta({ id: 'EntityDetail' });
