import { z } from 'zod';
import { COMPANION_PRESENCES } from '../../models/Character';

export const CompanionParamsSchema = z.object({
  companion: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: 'Your companion’s id (`pip`), ref (`forest:pip`) or name' }),
});

export const CompanionMemorySchema = z
  .object({
    id: z.string(),
    content: z.string(),
    kind: z.string().nullable(),
    tags: z.array(z.string()),
    occurred_at: z.iso.datetime(),
    seen_count: z.number().int(),
  })
  .meta({ id: 'CompanionMemory' });
export type CompanionMemoryView = z.infer<typeof CompanionMemorySchema>;

export const CompanionViewSchema = z
  .object({
    ref: z.string(),
    name: z.string(),
    species: z.string(),
    bond: z.number().int().min(1).max(5),
    bond_points: z.number().int(),
    presence: z.enum(COMPANION_PRESENCES),
    is_purchasable: z.literal(false),
    recent_memories: z.array(CompanionMemorySchema),
  })
  .meta({ id: 'CompanionBrainView' });
export type CompanionView = z.infer<typeof CompanionViewSchema>;

export const PresenceRequestSchema = z
  .strictObject({ presence: z.enum(COMPANION_PRESENCES) })
  .meta({ id: 'CompanionPresenceRequest' });

export const CompanionAskRequestSchema = z
  .strictObject({ question: z.string().trim().min(1).max(500) })
  .meta({ id: 'CompanionAskRequest' });

export const CompanionAnswerSchema = z
  .object({
    companion: z.object({ ref: z.string(), name: z.string() }),
    answer: z.string(),
    citations: z.array(z.object({ memory_id: z.string(), excerpt: z.string() })),
  })
  .meta({ id: 'CompanionAnswer' });
export type CompanionAnswerBody = z.infer<typeof CompanionAnswerSchema>;

export const ForgetRequestSchema = z
  .strictObject({ memory_id: z.string().min(1).max(100) })
  .meta({ id: 'CompanionForgetRequest' });

export const ForgetResultSchema = z
  .object({ forgotten: z.array(z.string()) })
  .meta({ id: 'CompanionForgetResult' });
