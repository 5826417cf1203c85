import type { QdrantClient } from '@qdrant/js-client-rest';
import { Types, type Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { openChunkCollection } from '../../ai/retrieval/qdrantCollection';
import { analyze } from '../../ai/text/terms';
import { influencerPostModel, type InfluencerPostRecord } from '../../models/InfluencerPost';
import type { Clock } from '../../platform/clock';
import { postIndexUnavailable } from './errors';

/** Prefix of the posts' Qdrant collection (`influencer_posts_v<n>`). */
export const POSTS_COLLECTION = 'influencer_posts';

/** A new post as the route validated it. */
export interface NewPost {
  platform: string;
  text: string;
  url?: string;
  published_at: Date;
  tags: string[];
}

/** Qdrant point id of a post: its ObjectId padded into a UUID. */
function pointId(id: string): string {
  const hex = `${id}00000000`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A post's topics: its tags, then its most frequent key terms (up to 8 in all), lowercased. */
export function topicsOf(text: string, tags: string[]): string[] {
  const counts = new Map<string, number>();
  for (const term of analyze(text)) if (term.length >= 4) counts.set(term, (counts.get(term) ?? 0) + 1);
  const terms = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([term]) => term);
  return [...new Set([...tags.map((tag) => tag.toLowerCase()), ...terms])].slice(0, 8);
}

/**
 * Creators' posts: stored in MongoDB and embedded through the brain's embedding chain into Qdrant with the
 * creator as payload, so recall only ever searches the caller's own posts.
 */
export class CreatorPosts {
  readonly posts;

  private constructor(
    connection: Connection,
    private readonly client: QdrantClient,
    private readonly chain: EmbeddingChain,
    private readonly collection: string,
    private readonly models: string[],
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.posts = influencerPostModel(connection);
  }

  static async open(
    connection: Connection,
    client: QdrantClient,
    chain: EmbeddingChain,
    clock: Clock,
    logger: Logger,
  ): Promise<CreatorPosts> {
    const { name, spaces } = await openChunkCollection(client, POSTS_COLLECTION, chain.spaces(), logger);
    await influencerPostModel(connection).createIndexes();
    return new CreatorPosts(connection, client, chain, name, [...spaces.keys()], clock, logger);
  }

  /**
   * Stores and indexes a post, all or nothing: embedded first (no embedding provider: 503
   * BRAIN_EMBEDDING_UNAVAILABLE), then its vector upserted (the vector store fails: 503 POST_INDEX_UNAVAILABLE), and
   * only then the post stored; a store that fails takes the vector back out. A post that cannot be indexed is not
   * stored, so every stored post is recallable, and the caller is told to retry.
   */
  async create(creator: string, post: NewPost): Promise<InfluencerPostRecord> {
    const record: InfluencerPostRecord = {
      _id: new Types.ObjectId(),
      creator,
      platform: post.platform,
      text: post.text,
      url: post.url ?? null,
      published_at: post.published_at,
      tags: post.tags,
      topics: topicsOf(post.text, post.tags),
      created_at: new Date(this.clock.now()),
    };
    const { vectors, model } = await this.chain.embed([`${post.tags.join(' ')}\n${post.text}`], this.models);
    const id = pointId(record._id.toHexString());
    try {
      await this.client.upsert(this.collection, {
        wait: true,
        points: [{ id, vector: { [model]: vectors[0] }, payload: { creator, model } }],
      });
    } catch (error) {
      this.logger.warn(
        { err: error, post: record._id.toHexString() },
        'post vector not stored; post refused',
      );
      throw postIndexUnavailable();
    }
    try {
      await this.posts.collection.insertOne(record);
    } catch (error) {
      await this.client.delete(this.collection, { wait: true, points: [id] }).catch((err: unknown) => {
        this.logger.warn({ err, post: record._id.toHexString() }, 'orphan post vector not removed');
      });
      throw error;
    }
    return record;
  }

  /** One of the creator's posts, or null. */
  find(creator: string, id: string): Promise<InfluencerPostRecord | null> {
    return this.posts.findOne({ _id: new Types.ObjectId(id), creator }).lean<InfluencerPostRecord>();
  }

  /** The creator's posts nearest to `query` with their similarity; without a query, the newest. */
  async recall(creator: string, query: string | undefined, limit: number) {
    if (!query) {
      const newest = await this.posts
        .find({ creator })
        .sort({ published_at: -1 })
        .limit(limit)
        .lean<InfluencerPostRecord[]>();
      return newest.map((post) => ({ post, score: null as number | null }));
    }
    const { vector, model } = await this.chain.embedQuery(query, this.models);
    const result = await this.client.query(this.collection, {
      query: vector,
      using: model,
      filter: { must: [{ key: 'creator', match: { value: creator } }] },
      limit,
      with_payload: false,
    });
    const ids = result.points.map(
      (point) => new Types.ObjectId(String(point.id).replace(/-/g, '').slice(0, 24)),
    );
    const posts = await this.posts.find({ _id: { $in: ids }, creator }).lean<InfluencerPostRecord[]>();
    const byId = new Map(posts.map((post) => [post._id.toHexString(), post]));
    return result.points.flatMap((point) => {
      const post = byId.get(String(point.id).replace(/-/g, '').slice(0, 24));
      return post ? [{ post, score: (Math.round(point.score * 1000) / 1000) as number | null }] : [];
    });
  }

  /** Every post of a creator (insights), newest first, at most 5 000. */
  all(creator: string): Promise<InfluencerPostRecord[]> {
    return this.posts.find({ creator }).sort({ published_at: -1 }).limit(5000).lean<InfluencerPostRecord[]>();
  }

  /** Posts indexed (all creators). */
  async size(): Promise<number> {
    return (await this.client.count(this.collection, { exact: true })).count;
  }
}
