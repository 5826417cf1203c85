import type { z } from 'zod';
import type { NewPost } from './creatorPosts';
import type { DraftRequest } from './draftGenerator';
import type { EngagementReading } from './engagement';
import type { InfluencerBrain } from './influencerBrain';
import { presentEngagement, presentEntity, presentPost } from './presenters';
import type {
  DraftSchema,
  EngagementSchema,
  EntitySchema,
  InsightsSchema,
  KnowledgeSearchSchema,
  PostSchema,
} from './schemas';

/**
 * The influencer brain's operations as other areas (the MCP gateway) call them: the same commands and presenters
 * as the /influencer/brain routes. `creator` is the user acting; the caller checks they hold the `creator` grant.
 */
export interface InfluencerService {
  /** POST /influencer/brain/posts. */
  createPost(creator: string, post: NewPost): Promise<z.infer<typeof PostSchema>>;
  /** GET /influencer/brain/posts: semantic recall of the creator's own posts (newest first without a query). */
  recallPosts(
    creator: string,
    query: string | undefined,
    limit: number,
  ): Promise<z.infer<typeof PostSchema>[]>;
  /** GET /influencer/brain/search. */
  search(query: string, limit: number): Promise<z.infer<typeof KnowledgeSearchSchema>>;
  /** GET /influencer/brain/entity/:name (404 when there is none). */
  entity(name: string): Promise<z.infer<typeof EntitySchema>>;
  /** POST /influencer/brain/engagement: idempotent per post and time; `created` false for a replay. */
  recordEngagement(
    creator: string,
    postId: string,
    reading: EngagementReading,
  ): Promise<{ engagement: z.infer<typeof EngagementSchema>; created: boolean }>;
  /** GET /influencer/brain/insights. */
  insights(creator: string): Promise<z.infer<typeof InsightsSchema>>;
  /** POST /influencer/brain/generate. */
  generate(creator: string, request: DraftRequest): Promise<z.infer<typeof DraftSchema>>;
}

/** The service interface over the influencer brain. */
export function influencerService(brain: InfluencerBrain): InfluencerService {
  return {
    createPost: async (creator, post) => presentPost(await brain.createPost(creator, post)),
    recallPosts: async (creator, query, limit) =>
      (await brain.recallPosts(creator, query, limit)).map((entry) => presentPost(entry.post, entry.score)),
    search: async (query, limit) => ({
      query,
      hits: (await brain.search(query, limit)).map(({ id, source, title, snippet, score }) => ({
        id,
        source,
        title,
        snippet,
        score,
      })),
    }),
    entity: async (name) => presentEntity(await brain.entity(name)),
    recordEngagement: async (creator, postId, reading) => {
      const { record, created } = await brain.recordEngagement(creator, postId, reading);
      return { engagement: presentEngagement(record), created };
    },
    insights: (creator) => brain.insights(creator),
    generate: (creator, request) => brain.generate(creator, request),
  };
}
