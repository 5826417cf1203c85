import { holdsRole } from '../../models/User';
import type { ApiRoutes } from '../../platform/http/routes';
import { userOf, type AuthGuard } from '../../access/authGuard';
import { presentInsights, presentQuest, presentRecommendations } from './presenters';
import type { QuestBrain } from './questBrain';
import {
  DismissalSchema,
  QuestBrainStatusSchema,
  QuestInsightsSchema,
  QuestParamsSchema,
  RecommendationsQuerySchema,
  RecommendationsSchema,
  SuggestQuerySchema,
  SuggestionsSchema,
} from './schemas';
import type { Request } from 'express';

/** The signed-in caller's user id (the guard ran first). */
const caller = (req: Request) => (userOf(req)?.userId.toHexString() ?? '') as string;

/** SPEC 4.8: the quests brain's routes, for signed-in players. */
export function registerQuestRoutes(routes: ApiRoutes, brain: QuestBrain, guard: AuthGuard): void {
  const common = { tags: ['quests'], security: 'bearer' as const, middleware: guard.requireUser };

  routes.add({
    ...common,
    method: 'get',
    path: '/quests/brain/recommendations',
    summary:
      "Quests for the caller's character: by level, place, quests done and play style; adapts to dismissals",
    request: { query: RecommendationsQuerySchema },
    responses: { 200: { description: 'Recommendations, best first', schema: RecommendationsSchema } },
    handler: async ({ req, query }) => {
      const { character, style, recommendations } = await brain.recommendations(caller(req), query.limit);
      return { status: 200, body: presentRecommendations(character, style, recommendations) };
    },
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/quests/brain/recommendations/:quest/dismiss',
    summary: 'Dismiss a recommendation: it is not recommended again and similar quests rank lower',
    request: { params: QuestParamsSchema },
    responses: {
      200: { description: 'Dismissed (idempotent)', schema: DismissalSchema },
      404: { description: 'No such quest' },
    },
    handler: async ({ req, params }) => {
      const dismissal = await brain.dismiss(caller(req), params.quest);
      return {
        status: 200,
        body: { quest: dismissal.quest, dismissed_at: dismissal.dismissed_at.toISOString() },
      };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/quests/brain/suggest',
    summary: 'Quests matching free-text interests by meaning',
    request: { query: SuggestQuerySchema },
    responses: { 200: { description: 'Suggestions, nearest first', schema: SuggestionsSchema } },
    handler: async ({ req, query }) => {
      const found = await brain.suggest(caller(req), query.interests, query.limit);
      const suggestions = found.map((s) => ({ ...presentQuest(s.quest), score: s.score, state: s.state }));
      return { status: 200, body: { interests: query.interests, suggestions } };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/quests/brain/insights',
    summary: "The caller's progression; for operators also the world's completion, abandonment and deaths",
    responses: { 200: { description: 'Insights', schema: QuestInsightsSchema } },
    handler: async ({ req }) => {
      const operator = holdsRole(userOf(req)?.roles ?? [], 'operator');
      const { player, world } = await brain.insights(caller(req), operator);
      return { status: 200, body: presentInsights(player, world) };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/quests/brain/status',
    summary: 'Integration status: quests indexed, last sync, brain availability',
    responses: { 200: { description: 'Status', schema: QuestBrainStatusSchema } },
    handler: async () => ({ status: 200, body: await brain.status() }),
  });
}
