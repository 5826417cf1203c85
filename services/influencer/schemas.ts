import { z } from 'zod';
import { LENGTHS, TONES } from './draftGenerator';

const isoDate = z.iso.datetime({ offset: true });
const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit id');
const count = z.number().int().min(0).max(1e12);

export const CreatePostSchema = z
  .strictObject({
    platform: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9_-]{1,30}$/, 'must be a platform name such as x, youtube, tiktok'),
    text: z.string().trim().min(1).max(5000),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    published_at: isoDate,
    tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
  })
  .meta({ id: 'InfluencerPostRequest' });

export const PostSchema = z
  .object({
    id: z.string(),
    platform: z.string(),
    text: z.string(),
    url: z.string().nullable(),
    published_at: z.string(),
    tags: z.array(z.string()),
    topics: z.array(z.string()),
    score: z.number().nullable().optional().meta({ description: 'Similarity to q (recall only)' }),
  })
  .meta({ id: 'InfluencerPost' });

export const PostsQuerySchema = z.object({
  q: z.string().trim().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const PostsSchema = z.object({ posts: z.array(PostSchema) }).meta({ id: 'InfluencerPosts' });

export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(500),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const KnowledgeSearchSchema = z
  .object({
    query: z.string(),
    hits: z.array(
      z.object({
        id: z.string(),
        source: z.string(),
        title: z.string(),
        snippet: z.string(),
        score: z.number(),
      }),
    ),
  })
  .meta({ id: 'InfluencerKnowledgeSearch' });

export const EntityParamsSchema = z.object({ name: z.string().trim().min(1).max(200) });
export const EntitySchema = z
  .object({
    name: z.string(),
    type: z.string(),
    aliases: z.array(z.string()),
    mention_count: z.number().int(),
    first_seen: z.string(),
    last_seen: z.string(),
    facts: z.array(
      z.object({
        predicate: z.string(),
        object: z.string(),
        object_is_entity: z.boolean(),
        valid_from: z.string(),
      }),
    ),
    mentions: z.array(
      z.object({
        chunk: z.string(),
        document: z.string(),
        source: z.string().nullable(),
        title: z.string().nullable(),
        count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'InfluencerEntity' });

export const EngagementRequestSchema = z
  .strictObject({
    post_id: objectId,
    at: isoDate,
    likes: count,
    shares: count,
    comments: count,
    views: count,
  })
  .meta({ id: 'EngagementRequest' });
export const EngagementSchema = z
  .object({
    post_id: z.string(),
    at: z.string(),
    likes: z.number(),
    shares: z.number(),
    comments: z.number(),
    views: z.number(),
    engagement: z.number(),
  })
  .meta({ id: 'Engagement' });

const group = z.object({
  key: z.string(),
  posts: z.number().int(),
  mean_engagement: z.number(),
  mean_rate: z.number(),
});
export const InsightsSchema = z
  .object({
    posts: z.array(
      z.object({
        id: z.string(),
        platform: z.string(),
        excerpt: z.string(),
        published_at: z.string(),
        topics: z.array(z.string()),
        engagement: z.number(),
        views: z.number(),
        rate: z.number(),
      }),
    ),
    topics: z.array(group),
    weekdays: z.array(group),
    hours: z.array(group),
    best_topics: z.array(group),
    worst_topics: z.array(group),
    trend: z.object({
      direction: z.enum(['up', 'down', 'flat', 'insufficient']),
      slope_per_post: z.number(),
      posts_measured: z.number().int(),
    }),
  })
  .meta({ id: 'InfluencerInsights' });

export const GenerateRequestSchema = z
  .strictObject({
    topic: z.string().trim().min(2).max(80),
    platform: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9_-]{1,30}$/, 'must be a platform name such as x, youtube, blog'),
    tone: z.enum(TONES).default('neutral'),
    length: z.enum(LENGTHS).default('medium'),
  })
  .meta({ id: 'GenerateRequest' });
export const DraftSchema = z
  .object({
    text: z.string(),
    method: z.enum(['offline-extractive']),
    sources: z.array(
      z.object({
        ref: z.number().int(),
        id: z.string(),
        kind: z.enum(['knowledge', 'post']),
        title: z.string(),
        quoted: z.string(),
      }),
    ),
    hashtags: z.array(z.string()),
  })
  .meta({ id: 'InfluencerDraft' });
