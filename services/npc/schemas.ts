import { z } from 'zod';

export const NpcParamsSchema = z.object({
  npc: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: 'The NPC’s ref (`village:elder`), or its id or name when unique' }),
});

const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit user id');

export const NpcMemoriesQuerySchema = z.object({
  player: objectId
    .optional()
    .meta({ description: 'Whose history (default yours; any player for operators)' }),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const NpcRefSchema = z.object({ ref: z.string(), name: z.string() });

export const NpcMemorySchema = z
  .object({
    id: z.string(),
    player_id: z.string().nullable(),
    content: z.string(),
    kind: z.string().nullable(),
    tags: z.array(z.string()),
    importance: z.number(),
    occurred_at: z.iso.datetime(),
    seen_count: z.number().int(),
  })
  .meta({ id: 'NpcMemory' });
export type NpcMemoryView = z.infer<typeof NpcMemorySchema>;

export const NpcMemoryPageSchema = z
  .object({ npc: NpcRefSchema, memories: z.array(NpcMemorySchema), next_cursor: z.string().nullable() })
  .meta({ id: 'NpcMemoryPage' });

export const NpcAskRequestSchema = z
  .strictObject({ question: z.string().trim().min(1).max(500) })
  .meta({ id: 'NpcAskRequest' });

export const CitationSchema = z
  .object({
    source: z.enum(['memory', 'lore', 'quest']),
    ref: z
      .string()
      .meta({ description: 'Memory id, or lore ref such as `help:start`, `room:village:square`' }),
    excerpt: z.string(),
  })
  .meta({ id: 'NpcCitation' });

export const NpcAnswerSchema = z
  .object({
    npc: NpcRefSchema,
    disposition: z.enum(['friendly', 'neutral', 'wary']),
    answer: z.string(),
    citations: z.array(CitationSchema),
  })
  .meta({ id: 'NpcAnswer' });
export type NpcAnswerBody = z.infer<typeof NpcAnswerSchema>;

export const NpcRelationshipSchema = z
  .object({
    npc: NpcRefSchema,
    score: z.number().int().meta({ description: '-10..10; friendly at 3 and above, wary at -3 and below' }),
    disposition: z.enum(['friendly', 'neutral', 'wary']),
    reasons: z.array(NpcMemorySchema).meta({ description: 'What moved it, newest first' }),
  })
  .meta({ id: 'NpcRelationship' });
export type NpcRelationshipBody = z.infer<typeof NpcRelationshipSchema>;
