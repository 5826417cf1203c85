import type { Request } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import { userOf, type AuthGuard } from '../../access/authGuard';
import type { InfluencerBrain } from './influencerBrain';
import { presentEngagement, presentEntity, presentPost } from './presenters';
import {
  CreatePostSchema,
  DraftSchema,
  EngagementRequestSchema,
  EngagementSchema,
  EntityParamsSchema,
  EntitySchema,
  GenerateRequestSchema,
  InsightsSchema,
  KnowledgeSearchSchema,
  PostSchema,
  PostsQuerySchema,
  PostsSchema,
  SearchQuerySchema,
} from './schemas';

/** The creator acting (the guard ran first). */
const creatorOf = (req: Request) => userOf(req)?.userId.toHexString() ?? '';

/** SPEC 4.7: the influencer brain's routes, for users holding the `creator` grant (403 ROLE_REQUIRED otherwise). */
export function registerInfluencerRoutes(routes: ApiRoutes, brain: InfluencerBrain, guard: AuthGuard): void {
  const common = {
    tags: ['influencer'],
    security: 'bearer' as const,
    middleware: guard.requireRole('creator'),
  };

  routes.add({
    ...common,
    method: 'post',
    path: '/influencer/brain/posts',
    summary: 'Record one of your published posts (indexed for recall)',
    request: { body: CreatePostSchema },
    description:
      'All or nothing: the post is embedded and its vector stored before the post is, so a stored post is always ' +
      'recallable. When no embedding provider answers or the vector store fails, nothing is stored (503; retry).',
    responses: {
      201: { description: 'Stored and indexed', schema: PostSchema },
      503: {
        description: 'BRAIN_EMBEDDING_UNAVAILABLE, POST_INDEX_UNAVAILABLE: nothing was stored; retry later',
      },
    },
    handler: async ({ req, body }) => ({
      status: 201,
      body: presentPost(
        await brain.createPost(creatorOf(req), { ...body, published_at: new Date(body.published_at) }),
      ),
    }),
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/influencer/brain/posts',
    summary: 'Semantic recall of your own posts (newest first without q)',
    request: { query: PostsQuerySchema },
    responses: { 200: { description: 'Posts', schema: PostsSchema } },
    handler: async ({ req, query }) => ({
      status: 200,
      body: {
        posts: (await brain.recallPosts(creatorOf(req), query.q, query.limit)).map((e) =>
          presentPost(e.post, e.score),
        ),
      },
    }),
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/influencer/brain/search',
    summary: "Semantic search of the platform's knowledge, for content research",
    request: { query: SearchQuerySchema },
    responses: { 200: { description: 'Knowledge hits', schema: KnowledgeSearchSchema } },
    handler: async ({ query }) => {
      const hits = await brain.search(query.q, query.limit);
      const body = {
        query: query.q,
        hits: hits.map(({ id, source, title, snippet, score }) => ({ id, source, title, snippet, score })),
      };
      return { status: 200, body };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/influencer/brain/entity/:name',
    summary: 'An entity of the knowledge graph with its facts and mentions',
    request: { params: EntityParamsSchema },
    responses: {
      200: { description: 'The entity', schema: EntitySchema },
      404: { description: 'No such entity' },
    },
    handler: async ({ params }) => ({ status: 200, body: presentEntity(await brain.entity(params.name)) }),
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/influencer/brain/engagement',
    summary: "Record a post's engagement at a time (idempotent per post and time)",
    description:
      'First reading 201; the same figures again 200; other figures for the same post and time 409.',
    request: { body: EngagementRequestSchema },
    responses: {
      201: { description: 'Recorded', schema: EngagementSchema },
      200: { description: 'Already recorded with these figures', schema: EngagementSchema },
      404: { description: 'No such post of yours' },
      409: { description: 'Recorded before with other figures' },
    },
    handler: async ({ req, body }) => {
      const { post_id, at, ...figures } = body;
      const { record, created } = await brain.recordEngagement(creatorOf(req), post_id, {
        at: new Date(at),
        ...figures,
      });
      return { status: created ? 201 : 200, body: presentEngagement(record) };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/influencer/brain/insights',
    summary: 'Performance per post, topic, weekday and hour; best and worst topics; trend',
    responses: { 200: { description: 'Insights', schema: InsightsSchema } },
    handler: async ({ req }) => ({ status: 200, body: await brain.insights(creatorOf(req)) }),
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/influencer/brain/generate',
    summary: 'A draft on a topic with the sources it drew on; never a fact without a source',
    request: { body: GenerateRequestSchema },
    responses: {
      200: { description: 'The draft', schema: DraftSchema },
      422: { description: 'Nothing to draw on: no draft is written without sources' },
    },
    handler: async ({ req, body }) => ({ status: 200, body: await brain.generate(creatorOf(req), body) }),
  });
}
