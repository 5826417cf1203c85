import { z } from 'zod';

const questRef = z
  .string()
  .regex(/^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/, 'must be a quest ref such as forest:wolf_cull')
  .max(80);
const styleVector = z
  .object({ combat: z.number(), crafting: z.number(), talking: z.number(), exploring: z.number() })
  .meta({ description: 'Shares of each play style (sum 1)' });

export const RecommendationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(20).default(5),
});
export const QuestParamsSchema = z.object({ quest: questRef });
export const SuggestQuerySchema = z.object({
  interests: z.string().trim().min(2).max(300).meta({ description: 'Free text: what you like doing' }),
  limit: z.coerce.number().int().min(1).max(20).default(5),
});

const QuestSummarySchema = z.object({
  quest: z.string(),
  name: z.string(),
  description: z.string(),
  area: z.string(),
  giver: z.string(),
  level: z.number().int(),
  rewards: z.object({ xp: z.number().int(), soft: z.number().int() }),
});

export const RecommendationsSchema = z
  .object({
    character: z.object({ level: z.number().int(), room: z.string() }).nullable(),
    style: styleVector,
    recommendations: z.array(QuestSummarySchema.extend({ score: z.number(), reasons: z.array(z.string()) })),
  })
  .meta({ id: 'QuestRecommendations' });

export const DismissalSchema = z
  .object({ quest: z.string(), dismissed_at: z.string() })
  .meta({ id: 'QuestDismissal' });

export const SuggestionsSchema = z
  .object({
    interests: z.string(),
    suggestions: z.array(
      QuestSummarySchema.extend({
        score: z.number(),
        state: z.enum(['active', 'completed', 'available', 'locked']),
      }),
    ),
  })
  .meta({ id: 'QuestSuggestions' });

export const QuestInsightsSchema = z
  .object({
    player: z.object({
      level: z.number().int(),
      xp: z.number().int(),
      counts: z.object({
        active: z.number(),
        completed: z.number(),
        available: z.number(),
        locked: z.number(),
      }),
      total: z.number().int(),
      completion_ratio: z.number(),
      style: styleVector,
      evidence: styleVector,
      per_area: z.array(z.object({ area: z.string(), completed: z.number(), total: z.number() })),
      recent: z.array(z.object({ quest: z.string(), name: z.string(), completed_at: z.string() })),
    }),
    world: z
      .object({
        players_scanned: z.number().int(),
        truncated: z.boolean(),
        quests: z.array(
          z.object({
            quest: z.string(),
            name: z.string(),
            active: z.number().int(),
            completed: z.number().int(),
            completion_rate: z.number().nullable(),
            abandoned: z.number().int(),
            avg_minutes_to_complete: z.number().nullable(),
            observed_completions: z.number().int(),
          }),
        ),
        deaths: z.array(z.object({ room: z.string(), deaths: z.number().int() })),
      })
      .nullable()
      .meta({ description: "The world's figures: operators and admins only, null for players" }),
  })
  .meta({ id: 'QuestInsights' });

export const QuestBrainStatusSchema = z
  .object({
    state: z.enum(['up', 'degraded', 'down']),
    world_quests: z.number().int(),
    quests_indexed: z.number().int(),
    last_sync: z.string().nullable(),
    events_connected: z.boolean(),
    providers: z.array(z.object({ provider: z.string(), model: z.string(), state: z.string() })),
  })
  .meta({ id: 'QuestBrainStatus' });
