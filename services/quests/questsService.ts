import type { z } from 'zod';
import { presentInsights, presentQuest, presentRecommendations } from './presenters';
import type { QuestBrain } from './questBrain';
import type {
  DismissalSchema,
  QuestBrainStatusSchema,
  QuestInsightsSchema,
  RecommendationsSchema,
  SuggestionsSchema,
} from './schemas';

/**
 * The quests brain's operations as other areas (the MCP gateway) call them: the same commands and presenters as the
 * /quests/brain routes, so both answer the same shapes. Every method acts for one user, `userId`.
 */
export interface QuestsService {
  /** GET /quests/brain/recommendations. */
  recommendations(userId: string, limit: number): Promise<z.infer<typeof RecommendationsSchema>>;
  /** POST /quests/brain/recommendations/:quest/dismiss (idempotent; 404 for an unknown quest). */
  dismiss(userId: string, quest: string): Promise<z.infer<typeof DismissalSchema>>;
  /** GET /quests/brain/suggest. */
  suggest(userId: string, interests: string, limit: number): Promise<z.infer<typeof SuggestionsSchema>>;
  /** GET /quests/brain/insights: the world's figures only when `operator`. */
  insights(userId: string, operator: boolean): Promise<z.infer<typeof QuestInsightsSchema>>;
  /** GET /quests/brain/status. */
  status(): Promise<z.infer<typeof QuestBrainStatusSchema>>;
}

/** The service interface over the quests brain. */
export function questsService(brain: QuestBrain): QuestsService {
  return {
    recommendations: async (userId, limit) => {
      const { character, style, recommendations } = await brain.recommendations(userId, limit);
      return presentRecommendations(character, style, recommendations);
    },
    dismiss: async (userId, quest) => {
      const dismissal = await brain.dismiss(userId, quest);
      return { quest: dismissal.quest, dismissed_at: dismissal.dismissed_at.toISOString() };
    },
    suggest: async (userId, interests, limit) => {
      const found = await brain.suggest(userId, interests, limit);
      return {
        interests,
        suggestions: found.map((s) => ({ ...presentQuest(s.quest), score: s.score, state: s.state })),
      };
    },
    insights: async (userId, operator) => {
      const { player, world } = await brain.insights(userId, operator);
      return presentInsights(player, world);
    },
    status: () => brain.status(),
  };
}
