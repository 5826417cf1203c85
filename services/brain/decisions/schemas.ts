import { z } from 'zod';
import { DECISION_CATEGORIES, DECISION_STATUSES, PUBLICATION_STATES } from '../../../models/Decision';

const timestamp = z.iso.datetime();
const decisionId = z.string().min(1).max(100);

export const DecisionCategorySchema = z.enum(DECISION_CATEGORIES).meta({ id: 'DecisionCategory' });
export const DecisionStatusSchema = z.enum(DECISION_STATUSES).meta({ id: 'DecisionStatus' });

export const DecisionVersionSchema = z
  .object({
    version: z.number().int(),
    status: DecisionStatusSchema,
    at: timestamp,
    actor: z.string(),
    change: z.string(),
    reason: z.string().nullable(),
    superseded_by: z.string().nullable(),
  })
  .meta({ id: 'DecisionVersion' });

export const DecisionPublicationSchema = z
  .object({
    state: z.enum(PUBLICATION_STATES),
    published_version: z.number().int(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    last_attempt_at: timestamp.nullable(),
    next_attempt_at: timestamp.nullable(),
  })
  .meta({
    id: 'DecisionPublication',
    description:
      'Publication into the brain corpus: pending until the current version is searchable, failed (retried with backoff, `next_attempt_at`) when a publish failed',
  });

export const DecisionSchema = z
  .object({
    id: z.string(),
    version: z.number().int(),
    title: z.string(),
    category: DecisionCategorySchema,
    status: DecisionStatusSchema,
    rationale: z.string(),
    context: z.string().nullable(),
    supersedes: z.array(z.string()),
    superseded_by: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    created_by: z.string(),
    source_memory_id: z.string().nullable(),
    publication: DecisionPublicationSchema,
  })
  .meta({ id: 'Decision', description: 'SPEC 2.9 Decision' });

export const DecisionWithVersionsSchema = DecisionSchema.extend({
  versions: z.array(DecisionVersionSchema),
}).meta({
  id: 'DecisionWithVersions',
});

export const CreateDecisionSchema = z
  .object({
    title: z.string().trim().min(1).max(300),
    category: DecisionCategorySchema,
    rationale: z.string().trim().min(1).max(10_000),
    context: z.string().trim().min(1).max(10_000).optional(),
    supersedes: decisionId.optional(),
  })
  .meta({ id: 'DecisionCreateRequest' });

export const DecisionListQuerySchema = z.object({
  category: DecisionCategorySchema.optional(),
  status: DecisionStatusSchema.optional(),
  publication: z.enum(PUBLICATION_STATES).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  as_of: timestamp.optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const DecisionListSchema = z
  .object({ decisions: z.array(DecisionSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'DecisionList' });

export const DecisionParamsSchema = z.object({ id: decisionId });
export const SupersedeSchema = z.object({ by: decisionId }).meta({ id: 'DecisionSupersedeRequest' });
export const RevertSchema = z
  .object({ reason: z.string().trim().min(1).max(2000) })
  .meta({ id: 'DecisionRevertRequest' });
