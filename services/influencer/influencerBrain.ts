import { Types, type Connection } from 'mongoose';
import { brainChunkModel } from '../../models/BrainChunk';
import type { BrainService } from '../brain';
import type { CreatorPosts, NewPost } from './creatorPosts';
import { writeDraft, type DraftRequest } from './draftGenerator';
import type { DraftSource } from './draftSources';
import { engagementOf, type EngagementReading, type Engagements } from './engagement';
import { lookupEntity } from './entityLookup';
import { postNotFound } from './errors';
import { influencerInsights } from './influencerInsights';

/** What the influencer brain is built from. */
export interface InfluencerBrainDependencies {
  connection: Connection;
  posts: CreatorPosts;
  engagements: Engagements;
  /** The knowledge service (content research and the generator's facts); absent in processes without it. */
  knowledge?: BrainService;
}

/** The influencer brain's commands behind its routes (SPEC 4.7); every one acts for one creator. */
export class InfluencerBrain {
  constructor(private readonly deps: InfluencerBrainDependencies) {}

  createPost(creator: string, post: NewPost) {
    return this.deps.posts.create(creator, post);
  }

  recallPosts(creator: string, query: string | undefined, limit: number) {
    return this.deps.posts.recall(creator, query, limit);
  }

  /** Semantic search of the platform's knowledge (hybrid BM25 + vectors). */
  async search(query: string, limit: number) {
    return (await this.knowledge().search({ query, strategy: 'hybrid', limit })).hits;
  }

  entity(name: string) {
    return lookupEntity(this.deps.connection, name);
  }

  async recordEngagement(creator: string, postId: string, reading: EngagementReading) {
    if (!Types.ObjectId.isValid(postId) || !(await this.deps.posts.find(creator, postId)))
      throw postNotFound(postId);
    return this.deps.engagements.record(creator, postId, reading);
  }

  async insights(creator: string) {
    const [posts, latest] = await Promise.all([
      this.deps.posts.all(creator),
      this.deps.engagements.latest(creator),
    ]);
    return influencerInsights(posts, latest);
  }

  /**
   * A draft from the knowledge base's best chunks on the topic and the creator's best-performing posts on it
   * (their sentences and their hashtags), written offline by extractive selection (draftGenerator.ts).
   */
  async generate(creator: string, request: DraftRequest) {
    const hits = await this.knowledge().search({ query: request.topic, strategy: 'hybrid', limit: 6 });
    const chunks = await brainChunkModel(this.deps.connection)
      .find({ _id: { $in: hits.hits.map((hit) => hit.id) } }, { text: 1, title: 1, source: 1 })
      .lean();
    const byId = new Map(chunks.map((chunk) => [chunk._id, chunk]));
    const knowledge: DraftSource[] = hits.hits.flatMap((hit) => {
      const chunk = byId.get(hit.id);
      return chunk
        ? [
            {
              id: `chunk:${hit.id}`,
              kind: 'knowledge' as const,
              title: `${chunk.source} — ${chunk.title}`,
              text: chunk.text,
              weight: hit.score,
            },
          ]
        : [];
    });
    const [recalled, latest] = await Promise.all([
      this.deps.posts.recall(creator, request.topic, 10),
      this.deps.engagements.latest(creator),
    ]);
    const best = recalled
      .filter((entry) => (entry.score ?? 0) > 0.1)
      .map((entry) => ({
        post: entry.post,
        engagement: engagementOf(
          latest.get(entry.post._id.toHexString()) ?? { likes: 0, shares: 0, comments: 0 },
        ),
      }))
      .sort((a, b) => b.engagement - a.engagement)
      .slice(0, 3);
    const posts: DraftSource[] = best.map(({ post, engagement }) => ({
      id: `post:${post._id.toHexString()}`,
      kind: 'post',
      title: `your ${post.platform} post of ${post.published_at.toISOString().slice(0, 10)}`,
      text: post.text,
      weight: engagement / Math.max(1, best[0]?.engagement ?? 1),
    }));
    const tags = [...new Set(best.flatMap(({ post }) => post.tags))];
    return writeDraft(request, [...knowledge, ...posts], tags);
  }

  private knowledge(): BrainService {
    if (!this.deps.knowledge) throw new Error('The knowledge service is not composed in this process');
    return this.deps.knowledge;
  }
}
