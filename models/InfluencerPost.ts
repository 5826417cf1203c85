import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/** A creator's published post (collection `influencerposts`), indexed for semantic recall of their own posts. */
export interface InfluencerPostRecord {
  _id: Types.ObjectId;
  /** The creator's user id (hex). */
  creator: string;
  platform: string;
  text: string;
  url: string | null;
  published_at: Date;
  tags: string[];
  /** Topics: the tags plus the key terms found in the text, lowercased. */
  topics: string[];
  created_at: Date;
}

const influencerPostSchema = new Schema<InfluencerPostRecord>(
  {
    creator: { type: String, required: true },
    platform: { type: String, required: true },
    text: { type: String, required: true },
    url: { type: String, default: null },
    published_at: { type: Date, required: true },
    tags: { type: [String], default: [] },
    topics: { type: [String], default: [] },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
influencerPostSchema.index({ creator: 1, published_at: -1 });

/** The `influencerposts` collection on `connection`. */
export const influencerPostModel = (connection: Connection) =>
  modelFor(connection, 'InfluencerPost', influencerPostSchema);

/**
 * One engagement reading of a post at a time (collection `postengagements`, `_id` `<postId>|<at ISO>`): recording
 * the same post and time again is idempotent.
 */
export interface PostEngagementRecord {
  _id: string;
  post: string;
  creator: string;
  at: Date;
  likes: number;
  shares: number;
  comments: number;
  views: number;
}

const postEngagementSchema = new Schema<PostEngagementRecord>(
  {
    _id: { type: String, required: true },
    post: { type: String, required: true },
    creator: { type: String, required: true },
    at: { type: Date, required: true },
    likes: { type: Number, required: true },
    shares: { type: Number, required: true },
    comments: { type: Number, required: true },
    views: { type: Number, required: true },
  },
  { versionKey: false },
);
postEngagementSchema.index({ creator: 1, post: 1, at: -1 });

/** The `postengagements` collection on `connection`. */
export const postEngagementModel = (connection: Connection) =>
  modelFor(connection, 'PostEngagement', postEngagementSchema);
