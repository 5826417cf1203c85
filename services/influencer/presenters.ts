import type { z } from 'zod';
import type { InfluencerPostRecord, PostEngagementRecord } from '../../models/InfluencerPost';
import { engagementOf } from './engagement';
import type { EntityView } from './entityLookup';
import type { EngagementSchema, EntitySchema, PostSchema } from './schemas';

/** A post as JSON (with its recall score when there is one). */
export function presentPost(post: InfluencerPostRecord, score?: number | null): z.infer<typeof PostSchema> {
  return {
    id: post._id.toHexString(),
    platform: post.platform,
    text: post.text,
    url: post.url,
    published_at: post.published_at.toISOString(),
    tags: post.tags,
    topics: post.topics,
    ...(score === undefined ? {} : { score }),
  };
}

/** An engagement reading as JSON. */
export function presentEngagement(record: PostEngagementRecord): z.infer<typeof EngagementSchema> {
  return {
    post_id: record.post,
    at: record.at.toISOString(),
    likes: record.likes,
    shares: record.shares,
    comments: record.comments,
    views: record.views,
    engagement: engagementOf(record),
  };
}

/** An entity with its facts and mentions as JSON. */
export function presentEntity(view: EntityView): z.infer<typeof EntitySchema> {
  const { entity } = view;
  return {
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    mention_count: entity.mention_count,
    first_seen: entity.first_seen.toISOString(),
    last_seen: entity.last_seen.toISOString(),
    facts: view.facts.map((fact) => ({ ...fact, valid_from: fact.valid_from.toISOString() })),
    mentions: view.mentions,
  };
}
