import { createHash } from 'node:crypto';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { Logger } from 'pino';
import type { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { openChunkCollection } from '../../ai/retrieval/qdrantCollection';
import type { QuestFeatures } from './questCatalogue';

/** Prefix of the quest texts' Qdrant collection (`quest_texts_v<n>`). */
export const QUEST_TEXTS_COLLECTION = 'quest_texts';

/** A quest and the similarity of its text to a query. */
export interface QuestHit {
  ref: string;
  score: number;
}

/** Qdrant point id of a quest ref: a UUID from its SHA-256 (stable across restarts). */
function pointId(ref: string): string {
  const hex = createHash('sha256').update(ref).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The world's quest texts embedded through the brain's embedding chain into Qdrant (the brain's collection
 * helper), for suggestions by interest. `sync` re-embeds every quest (idempotent upserts; the world is data, a few
 * dozen quests) and removes quests the world no longer has.
 */
export class QuestTexts {
  lastSync: Date | null = null;
  indexed = 0;

  private constructor(
    private readonly client: QdrantClient,
    private readonly chain: EmbeddingChain,
    private readonly collection: string,
    private readonly models: string[],
  ) {}

  static async open(client: QdrantClient, chain: EmbeddingChain, logger: Logger): Promise<QuestTexts> {
    const { name, spaces } = await openChunkCollection(
      client,
      QUEST_TEXTS_COLLECTION,
      chain.spaces(),
      logger,
    );
    return new QuestTexts(client, chain, name, [...spaces.keys()]);
  }

  /** Embeds every quest and drops points of quests that are gone. */
  async sync(quests: QuestFeatures[], now: Date): Promise<void> {
    const { vectors, model } = await this.chain.embed(
      quests.map((quest) => quest.text),
      this.models,
    );
    const wanted = new Set(quests.map((quest) => pointId(quest.ref)));
    const existing = await this.client.scroll(this.collection, { limit: 10_000, with_payload: false });
    const stale = existing.points.map((point) => String(point.id)).filter((id) => !wanted.has(id));
    if (stale.length > 0) await this.client.delete(this.collection, { wait: true, points: stale });
    if (quests.length > 0) {
      await this.client.upsert(this.collection, {
        wait: true,
        points: quests.map((quest, index) => ({
          id: pointId(quest.ref),
          vector: { [model]: vectors[index] },
          payload: { ref: quest.ref, area: quest.area, model },
        })),
      });
    }
    this.indexed = quests.length;
    this.lastSync = now;
  }

  /** The quests nearest to `text`. */
  async search(text: string, limit: number): Promise<QuestHit[]> {
    const { vector, model } = await this.chain.embedQuery(text, this.models);
    const result = await this.client.query(this.collection, {
      query: vector,
      using: model,
      limit,
      with_payload: ['ref'],
    });
    return result.points.map((point) => ({ ref: String(point.payload?.ref), score: point.score }));
  }

  /** Points stored (equals the world's quests after a sync). */
  async size(): Promise<number> {
    return (await this.client.count(this.collection, { exact: true })).count;
  }
}
