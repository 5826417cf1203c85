import { z } from 'zod';
import { MEMORY_TIERS } from './memoryService';

const timestamp = z.iso.datetime();

/** A memory subject: `user:<id>`, `npc:<area>:<id>`, `companion:<user>:<name>`, `bot:<instance>`. */
export const SubjectSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}:[^\s|]{1,200}$/, { error: 'expected a subject such as npc:village:elder' })
  .meta({
    id: 'MemorySubject',
    description: 'Whose memory: user:<id>, npc:<area>:<id>, companion:<user>:<name>, bot:<instance>',
  });

export const MemoryTierSchema = z.enum(MEMORY_TIERS).meta({ id: 'MemoryTier' });
const sessionId = z.string().trim().min(1).max(200);
const tags = z.array(z.string().trim().min(1).max(100)).max(32);

export const MemoryRecordSchema = z
  .object({
    id: z.string(),
    subject: z.string(),
    tier: MemoryTierSchema,
    content: z.string(),
    session_id: z.string().nullable(),
    kind: z.string().nullable(),
    tags: z.array(z.string()),
    importance: z.number(),
    occurred_at: timestamp,
    created_at: timestamp,
    last_seen: timestamp,
    seen_count: z.number().int(),
  })
  .meta({ id: 'MemoryEntry', description: 'SPEC 2.9 MemoryEntry' });

export const RememberRequestSchema = z
  .object({
    content: z.string().trim().min(1).max(20_000),
    tier: MemoryTierSchema.optional().meta({ description: 'Default episodic; working needs session_id' }),
    subject: SubjectSchema.optional().meta({ description: 'Service token: required. Users: their own only' }),
    session_id: sessionId.optional(),
    kind: z.string().trim().min(1).max(100).optional(),
    tags: tags.optional(),
    importance: z.number().min(0).max(1).optional(),
    occurred_at: timestamp.optional(),
  })
  .meta({ id: 'MemoryRememberRequest' });
export type RememberRequest = z.infer<typeof RememberRequestSchema>;

export const RememberResponseSchema = MemoryRecordSchema.extend({
  merged: z.boolean().meta({ description: 'True when merged into an existing near-duplicate' }),
}).meta({ id: 'MemoryRememberResponse' });

export const RecallRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(2000),
    subject: SubjectSchema.optional(),
    tiers: z.array(MemoryTierSchema).min(1).max(4).optional(),
    session_id: sessionId.optional(),
    tags: tags.optional(),
    limit: z.number().int().min(1).max(100).optional(),
    as_of: timestamp.optional(),
  })
  .meta({ id: 'MemoryRecallRequest' });
export type RecallRequest = z.infer<typeof RecallRequestSchema>;

export const RecallResponseSchema = z
  .object({
    hits: z.array(MemoryRecordSchema.extend({ score: z.number(), age_seconds: z.number().int() })),
    working: z.array(MemoryRecordSchema).optional(),
  })
  .meta({ id: 'MemoryRecallResponse' });

export const ForgetRequestSchema = z
  .union([
    z.strictObject({ id: z.string().min(1).max(100), subject: SubjectSchema.optional() }),
    z.strictObject({ session_id: sessionId, subject: SubjectSchema.optional() }),
    z.strictObject({
      query: z.string().trim().min(1).max(2000),
      confirm: z.boolean(),
      subject: SubjectSchema.optional(),
    }),
  ])
  .meta({ id: 'MemoryForgetRequest', description: '{id} | {session_id} | {query, confirm: true}' });
export type ForgetRequest = z.infer<typeof ForgetRequestSchema>;

export const ForgetResponseSchema = z
  .object({ forgotten: z.array(z.string()) })
  .meta({ id: 'MemoryForgetResponse' });

export const MemoryIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const SessionParamsSchema = z.object({ session_id: sessionId });
export const SubjectQuerySchema = z.object({ subject: SubjectSchema.optional() });

export const ListQuerySchema = z.object({
  subject: SubjectSchema.optional(),
  tier: z.enum(['episodic', 'semantic', 'archival']).optional(),
  session_id: sessionId.optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const MemoryListSchema = z
  .object({ memories: z.array(MemoryRecordSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'MemoryList' });

export const WorkingMemorySchema = z
  .object({ session_id: z.string(), memories: z.array(MemoryRecordSchema) })
  .meta({ id: 'WorkingMemory' });
