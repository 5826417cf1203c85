import type { Connection } from 'mongoose';
import { postEngagementModel, type PostEngagementRecord } from '../../models/InfluencerPost';
import { engagementConflict } from './errors';

/** One engagement reading as the route validated it. */
export interface EngagementReading {
  at: Date;
  likes: number;
  shares: number;
  comments: number;
  views: number;
}

/** A post's engagement score: likes, plus shares twice and comments one and a half times (they cost more). */
export function engagementOf(reading: Pick<EngagementReading, 'likes' | 'shares' | 'comments'>): number {
  return reading.likes + 2 * reading.shares + 1.5 * reading.comments;
}

/**
 * Engagement readings, idempotent per post and time: the first reading of (post, at) is stored (201); the same
 * figures again are a replay (200); other figures for the same post and time are refused (409).
 */
export class Engagements {
  readonly readings;

  constructor(connection: Connection) {
    this.readings = postEngagementModel(connection);
  }

  async record(
    creator: string,
    post: string,
    reading: EngagementReading,
  ): Promise<{ record: PostEngagementRecord; created: boolean }> {
    const _id = `${post}|${reading.at.toISOString()}`;
    const record: PostEngagementRecord = { _id, post, creator, ...reading };
    const { _id: _key, ...fields } = record;
    // The driver directly: its filter on a string `_id` (the mongoose model types `_id` as an ObjectId).
    const result = await this.readings.collection.updateOne(
      { _id } as unknown as Record<string, never>,
      { $setOnInsert: fields },
      { upsert: true },
    );
    if (result.upsertedCount === 1) return { record, created: true };
    const stored = await this.readings.findById(_id).lean<PostEngagementRecord>();
    const same =
      stored &&
      (['likes', 'shares', 'comments', 'views'] as const).every((key) => stored[key] === reading[key]);
    if (!stored || !same || stored.creator !== creator) throw engagementConflict();
    return { record: stored, created: false };
  }

  /** The latest reading of each of the creator's posts. */
  async latest(creator: string): Promise<Map<string, PostEngagementRecord>> {
    const rows = await this.readings.find({ creator }).sort({ at: 1 }).lean<PostEngagementRecord[]>();
    return new Map(rows.map((row) => [row.post, row]));
  }
}
