import type { z } from 'zod';
import type { QuestFeatures } from './questCatalogue';
import type { Recommendation } from './recommendations';
import type { QuestInsightsSchema, RecommendationsSchema } from './schemas';
import type { PlayerInsights, WorldInsights } from './questInsights';
import type { CharacterRecord } from '../../models/Character';
import type { StyleVector } from './questCatalogue';

/** A quest as the routes show it. */
export function presentQuest(quest: QuestFeatures) {
  return {
    quest: quest.ref,
    name: quest.name,
    description: quest.description,
    area: quest.area,
    giver: quest.giver,
    level: quest.level,
    rewards: { xp: quest.xp, soft: quest.soft },
  };
}

/** The body of GET /quests/brain/recommendations. */
export function presentRecommendations(
  character: CharacterRecord | null,
  style: StyleVector,
  recommendations: Recommendation[],
): z.infer<typeof RecommendationsSchema> {
  return {
    character: character ? { level: character.level, room: character.roomRef } : null,
    style,
    recommendations: recommendations.map((r) => ({
      ...presentQuest(r.quest),
      score: r.score,
      reasons: r.reasons,
    })),
  };
}

/** The body of GET /quests/brain/insights. */
export function presentInsights(
  player: PlayerInsights,
  world: WorldInsights | null,
): z.infer<typeof QuestInsightsSchema> {
  return { player, world };
}
