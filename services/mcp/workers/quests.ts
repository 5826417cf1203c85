import { z } from 'zod';
import { holdsRole } from '../../../models/User';
import type { QuestsService } from '../../quests';
import {
  DismissalSchema,
  QuestBrainStatusSchema,
  QuestInsightsSchema,
  QuestParamsSchema,
  RecommendationsSchema,
  SuggestQuerySchema,
  SuggestionsSchema,
} from '../../quests';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { callerUserId, pageLimit } from './caller';

const quest = QuestParamsSchema.shape.quest.meta({
  description: 'A quest ref such as forest:wolf_cull (from quests_recommendations)',
});

type QuestLine = { quest: string; name: string; level: number; score: number };
const questLines = (quests: QuestLine[]) =>
  quests
    .slice(0, 5)
    .map(
      (entry, index) =>
        `${index + 1}. ${entry.name} (${entry.quest}, level ${entry.level}, score ${entry.score})`,
    )
    .join('\n');

/**
 * The quests worker: the quests brain (SPEC 4.8) for the caller's own character, through the quests area's
 * service interface: recommendations adapted to play style and dismissals, suggestions by meaning, progression
 * insights and the brain's status. Like `/quests/brain`, any signed-in user (guests too), never the service token.
 */
export function questsWorker(quests: QuestsService): Worker {
  return {
    name: 'quests',
    description: 'Which quests suit you: recommendations, suggestions by interest, and your progression.',
    stores: ['mongo', 'qdrant'],
    tools: [
      defineTool({
        name: 'quests_recommendations',
        title: 'Quests recommended for me',
        description:
          'Quests for your character, best first, from its level, place, the quests it has done and your play ' +
          'style (combat, crafting, talking, exploring), each with its reasons. Quests you dismissed are left ' +
          'out. Accept one in the world with world_quest_accept.',
        input: z.strictObject({ limit: pageLimit(20, 5) }),
        output: RecommendationsSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: ({ limit }, { caller }) => quests.recommendations(callerUserId(caller), limit),
        summarise: ({ recommendations }) =>
          recommendations.length === 0
            ? 'No quests to recommend.'
            : `${recommendations.length} recommended:\n${questLines(recommendations)}`,
      }),
      defineTool({
        name: 'quests_dismiss',
        title: 'Dismiss a recommended quest',
        description:
          'Stops recommending a quest to you; similar quests rank lower from now on. Dismissing again changes ' +
          'nothing. QUEST_NOT_FOUND for an unknown quest.',
        input: z.strictObject({ quest }),
        output: DismissalSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
        access: ACCESS.player,
        handler: (input, { caller }) => quests.dismiss(callerUserId(caller), input.quest),
        summarise: (dismissal) => `Dismissed ${dismissal.quest}.`,
      }),
      defineTool({
        name: 'quests_suggest',
        title: 'Quests matching my interests',
        description:
          'Quests whose story matches what you like doing, in free words ("hunting wolves", "brewing"), nearest ' +
          'first by meaning, each with your state on it (active, completed, available, locked).',
        input: z.strictObject({
          interests: SuggestQuerySchema.shape.interests,
          limit: pageLimit(20, 5),
        }),
        output: SuggestionsSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: (input, { caller }) => quests.suggest(callerUserId(caller), input.interests, input.limit),
        summarise: ({ interests, suggestions }) =>
          suggestions.length === 0
            ? `No quests match "${interests}".`
            : `${suggestions.length} quests for "${interests}":\n${questLines(suggestions)}`,
      }),
      defineTool({
        name: 'quests_insights',
        title: 'My quest progression',
        description:
          'Your level, quests active, completed, available and locked, completion per area, recent completions ' +
          'and play style. For operators and admins also the world’s completion, abandonment and deaths per room ' +
          '(world is null for players).',
        input: z.strictObject({}),
        output: QuestInsightsSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: (_input, { caller }) =>
          quests.insights(
            callerUserId(caller),
            caller.kind === 'user' && holdsRole(caller.roles, 'operator'),
          ),
        summarise: ({ player, world }) =>
          `Level ${player.level}: ${player.counts.completed}/${player.total} quests completed, ` +
          `${player.counts.active} active, ${player.counts.available} available` +
          (world ? `; world figures over ${world.players_scanned} players.` : '.'),
      }),
      defineTool({
        name: 'quests_status',
        title: 'Quests brain status',
        description:
          'Whether the quests brain is up: quests in the world and indexed, last sync, whether it follows world ' +
          'events, and its embedding providers’ breaker states.',
        input: z.strictObject({}),
        output: QuestBrainStatusSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: () => quests.status(),
        summarise: (status) =>
          `${status.state}: ${status.quests_indexed}/${status.world_quests} quests indexed, last sync ` +
          `${status.last_sync ?? 'never'}.`,
      }),
    ],
  };
}
