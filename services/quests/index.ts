import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { WorldEventBus } from '../../rooms/worldEvents';
import type { BrainStatusSource } from '../../platform/areaStatus';
import type { AuthService } from '../auth';
import { embeddingProvidersFrom } from '../../ai/embeddings/embeddingProviders';
import type { WorldService } from '../mud';
import { QuestBrain, type Notify } from './questBrain';
import { QuestCatalogue } from './questCatalogue';
import { QuestSignals } from './questSignals';
import { QuestTexts } from './questTexts';
import { questsService, type QuestsService } from './questsService';
import { registerQuestRoutes } from './router';

// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { QUEST_NOTIFICATION_KINDS, type Notify, type QuestNotificationKind } from './questBrain';
export type { QuestsService } from './questsService';
export {
  DismissalSchema,
  QuestBrainStatusSchema,
  QuestInsightsSchema,
  QuestParamsSchema,
  RecommendationsSchema,
  SuggestQuerySchema,
  SuggestionsSchema,
} from './schemas';

/** What the quests brain is built from: the world's service, and optionally its event bus and notifications. */
export interface QuestsAreaSources {
  world: WorldService;
  /** World events (kills, deaths, conversations, trades, completions) for play style and deaths per room. */
  events?: WorldEventBus;
  /** Issue 24's notifications: after a quest completion, the player's next recommendations. */
  notify?: Notify;
}

/** The quests area's parts, its status for the admin brain and its service interface (the MCP gateway). */
export interface QuestsArea extends ProductParts {
  status: BrainStatusSource;
  service: QuestsService;
}

/**
 * The quests brain (SPEC 4.8) over the world's data and saved characters: recommendations adapted by play style
 * and dismissals, suggestions by meaning (quest texts embedded through the brain's chain into Qdrant, synced at
 * start), progression insights (world figures for operators) and its status. Routes in api processes.
 */
export async function createQuestsArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  sources: QuestsAreaSources,
): Promise<QuestsArea> {
  const { stores, config, clock } = context;
  if (!stores.mongo) throw new Error('The quests brain needs MongoDB');
  const logger = context.logger.child({ component: 'quests' });
  const chain = new EmbeddingChain({ providers: embeddingProvidersFrom(config), clock, logger });
  const catalogue = new QuestCatalogue(sources.world.world);
  const signals = new QuestSignals(stores.mongo, clock);
  const texts = await QuestTexts.open(stores.qdrant, chain, logger);
  await Promise.all([
    signals.ensureIndexes(),
    texts.sync([...catalogue.quests.values()], new Date(clock.now())),
  ]);
  const brain = new QuestBrain({
    catalogue,
    signals,
    texts,
    chain,
    clock,
    readCharacters: (query) => sources.world.readCharacters(query),
    eventsConnected: sources.events !== undefined,
  });
  const onCompleted = sources.notify
    ? (userId: string) => {
        void brain.recommendations(userId, 3).then(
          ({ recommendations }) =>
            sources.notify?.(userId, 'quests.recommendations', {
              quests: recommendations.map((r) => ({
                quest: r.quest.ref,
                name: r.quest.name,
                score: r.score,
              })),
            }),
          (error: unknown) => logger.warn({ err: error }, 'quest recommendations not notified'),
        );
      }
    : undefined;
  const unsubscribe = sources.events ? signals.subscribe(sources.events, logger, onCompleted) : undefined;
  return {
    service: questsService(brain),
    services: hasRole(config, 'api') ? [(routes) => registerQuestRoutes(routes, brain, auth.guard)] : [],
    status: {
      name: 'quests',
      status: async () => {
        const status = await brain.status();
        return {
          state: status.state,
          indexes: { quests: status.quests_indexed },
          last_sync: status.last_sync ? new Date(status.last_sync) : null,
          last_consolidation: null,
          detail: status.events_connected ? null : 'no world event bus: play style from characters only',
        };
      },
    },
    close: async () => unsubscribe?.(),
  };
}
