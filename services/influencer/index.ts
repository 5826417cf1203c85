import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { BrainStatusSource } from '../../platform/areaStatus';
import type { AuthService } from '../auth';
import type { BrainService } from '../brain';
import { embeddingProvidersFrom } from '../../ai/embeddings/embeddingProviders';
import { CreatorPosts } from './creatorPosts';
import { Engagements } from './engagement';
import { InfluencerBrain } from './influencerBrain';
import { influencerService, type InfluencerService } from './influencerService';
import { registerInfluencerRoutes } from './router';

export type { InfluencerService } from './influencerService';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export {
  CreatePostSchema,
  DraftSchema,
  EngagementRequestSchema,
  EngagementSchema,
  EntitySchema,
  GenerateRequestSchema,
  InsightsSchema,
  KnowledgeSearchSchema,
  PostSchema,
  PostsSchema,
} from './schemas';

/** The influencer area's parts, its status for the admin brain and its service interface (api role only). */
export interface InfluencerArea extends ProductParts {
  status?: BrainStatusSource;
  service?: InfluencerService;
}

/**
 * The influencer brain (SPEC 4.7) for users an admin granted `creator`: their posts (embedded through the brain's
 * chain into Qdrant, recalled only by their author), engagement readings, insights, knowledge search and entity
 * lookup over the knowledge service, and drafts composed offline from sources. Api processes only.
 */
export async function createInfluencerArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  knowledge: BrainService | undefined,
): Promise<InfluencerArea> {
  const { stores, config, clock } = context;
  if (!hasRole(config, 'api')) return {};
  if (!stores.mongo) throw new Error('The influencer brain needs MongoDB');
  const logger = context.logger.child({ component: 'influencer' });
  const chain = new EmbeddingChain({ providers: embeddingProvidersFrom(config), clock, logger });
  const posts = await CreatorPosts.open(stores.mongo, stores.qdrant, chain, clock, logger);
  const brain = new InfluencerBrain({
    connection: stores.mongo,
    posts,
    engagements: new Engagements(stores.mongo),
    knowledge,
  });
  return {
    service: influencerService(brain),
    services: [(routes) => registerInfluencerRoutes(routes, brain, auth.guard)],
    status: {
      name: 'influencer',
      status: async () => {
        const open = chain.breakerStates().filter((p) => p.state === 'OPEN').length;
        return {
          state: open === chain.breakerStates().length ? 'down' : open > 0 ? 'degraded' : 'up',
          indexes: { posts: await posts.size() },
          last_sync: null,
          last_consolidation: null,
          detail: knowledge ? null : 'knowledge service not composed: search and generate unavailable',
        };
      },
    },
  };
}
