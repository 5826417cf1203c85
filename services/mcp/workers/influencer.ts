import { z } from 'zod';
import type { InfluencerService } from '../../influencer';
import {
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
} from '../../influencer';
import { ACCESS, ACTS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { callerUserId, hexId, pageLimit } from './caller';

const EngagementOutput = EngagementSchema.extend({
  created: z
    .boolean()
    .meta({ description: 'false when this reading was recorded before with these figures' }),
});

/**
 * The influencer worker: the influencer brain (SPEC 4.7) for users an admin granted `creator`, through the
 * influencer area's service interface: their posts (recalled only by their author), engagement readings, insights,
 * knowledge research and drafts with sources. Access is the routes' `requireRole('creator')`: the grant itself (an
 * admin without it is refused too), never the service token.
 */
export function influencerWorker(influencer: InfluencerService): Worker {
  const creatorOf = callerUserId;
  return {
    name: 'influencer',
    description: 'For creators: your posts, their engagement and insights, research and drafts with sources.',
    stores: ['mongo', 'qdrant'],
    tools: [
      defineTool({
        name: 'influencer_record_post',
        title: 'Record one of my posts',
        description:
          'Stores a post you published (platform, text, url, published_at, tags) and indexes it for recall and ' +
          'insights; its topics are derived from text and tags. Each call stores a new post.',
        input: z.strictObject(CreatePostSchema.shape),
        output: PostSchema,
        annotations: ACTS,
        access: ACCESS.creator,
        callsPerMinute: 30,
        handler: (input, { caller }) =>
          influencer.createPost(creatorOf(caller), { ...input, published_at: new Date(input.published_at) }),
        summarise: (post) =>
          `Recorded post ${post.id} on ${post.platform} (topics: ${post.topics.join(', ') || 'none'}).`,
      }),
      defineTool({
        name: 'influencer_posts',
        title: 'Recall my posts',
        description:
          'Your own posts nearest to q by meaning (with their similarity score), or newest first without q.',
        input: z.strictObject({
          q: z.string().trim().min(1).max(500).optional().meta({ description: 'What the posts are about' }),
          limit: pageLimit(50, 10),
        }),
        output: PostsSchema,
        annotations: READ_ONLY,
        access: ACCESS.creator,
        handler: async ({ q, limit }, { caller }) => ({
          posts: await influencer.recallPosts(creatorOf(caller), q, limit),
        }),
        summarise: ({ posts }) =>
          posts.length === 0
            ? 'No posts.'
            : `${posts.length} posts:\n` +
              posts
                .slice(0, 5)
                .map(
                  (post) =>
                    `- ${post.id} (${post.platform}, ${post.published_at}): ${post.text.slice(0, 80)}`,
                )
                .join('\n'),
      }),
      defineTool({
        name: 'influencer_search',
        title: 'Research the platform’s knowledge',
        description:
          'Searches the platform’s knowledge base (keywords and meaning) for content research: hits with source, ' +
          'title and snippet.',
        input: z.strictObject({
          q: z.string().trim().min(1).max(500).meta({ description: 'What to research' }),
          limit: pageLimit(50, 10),
        }),
        output: KnowledgeSearchSchema,
        annotations: READ_ONLY,
        access: ACCESS.creator,
        handler: ({ q, limit }) => influencer.search(q, limit),
        summarise: ({ query, hits }) =>
          hits.length === 0
            ? `No hits for "${query}".`
            : `${hits.length} hits for "${query}":\n` +
              hits
                .slice(0, 5)
                .map((hit) => `- ${hit.title} (${hit.source})`)
                .join('\n'),
      }),
      defineTool({
        name: 'influencer_entity',
        title: 'An entity of the knowledge graph',
        description:
          'An entity of the platform’s knowledge graph by name: its facts and the documents mentioning it. ' +
          'ENTITY_NOT_FOUND when there is none.',
        input: z.strictObject({
          name: z.string().trim().min(1).max(200).meta({ description: 'The entity’s name' }),
        }),
        output: EntitySchema,
        annotations: READ_ONLY,
        access: ACCESS.creator,
        handler: ({ name }) => influencer.entity(name),
        summarise: (entity) =>
          `${entity.name} (${entity.type}): ${entity.mention_count} mentions, ${entity.facts.length} facts.`,
      }),
      defineTool({
        name: 'influencer_record_engagement',
        title: 'Record a post’s engagement',
        description:
          'Records the likes, shares, comments and views of one of your posts at a time. Idempotent per post and ' +
          'time: the same figures again answer created: false; other figures for the same post and time are a ' +
          'conflict. POST_NOT_FOUND for a post that is not yours.',
        input: z.strictObject({ ...EngagementRequestSchema.shape, post_id: hexId('post') }),
        output: EngagementOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
        access: ACCESS.creator,
        callsPerMinute: 60,
        handler: async ({ post_id: postId, at, ...figures }, { caller }) => {
          const { engagement, created } = await influencer.recordEngagement(creatorOf(caller), postId, {
            at: new Date(at),
            ...figures,
          });
          return { ...engagement, created };
        },
        summarise: (reading) =>
          `${reading.created ? 'Recorded' : 'Already recorded'}: post ${reading.post_id} at ${reading.at}, ` +
          `engagement ${reading.engagement}.`,
      }),
      defineTool({
        name: 'influencer_insights',
        title: 'How my posts perform',
        description:
          'Engagement per post, topic, weekday and hour; your best and worst topics; and the trend over your ' +
          'posts. Use it before choosing what to post next.',
        input: z.strictObject({}),
        output: InsightsSchema,
        annotations: READ_ONLY,
        access: ACCESS.creator,
        handler: (_input, { caller }) => influencer.insights(creatorOf(caller)),
        summarise: (insights) =>
          `${insights.posts.length} posts; trend ${insights.trend.direction}` +
          (insights.best_topics.length
            ? `; best topics: ${insights.best_topics.map((topic) => topic.key).join(', ')}.`
            : '.'),
      }),
      defineTool({
        name: 'influencer_draft',
        title: 'Draft a post with sources',
        description:
          'Writes a draft on a topic for a platform, in a tone and length, from the knowledge base’s best ' +
          'passages and your best-performing posts on it, citing each source as [n]. It never states a fact ' +
          'without a source: with nothing to draw on it is refused.',
        input: z.strictObject(GenerateRequestSchema.shape),
        output: DraftSchema,
        annotations: READ_ONLY,
        access: ACCESS.creator,
        handler: (input, { caller }) => influencer.generate(creatorOf(caller), input),
        summarise: (draft) => `${draft.text}\n(${draft.sources.length} sources)`,
      }),
    ],
  };
}
