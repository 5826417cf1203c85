import type { QdrantClient } from '@qdrant/js-client-rest';
import type { Logger } from 'pino';
import type { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { openChunkCollection } from '../../ai/retrieval/qdrantCollection';
import type { MarketListingRecord } from '../../models/MarketListing';

/** Prefix of the listings' Qdrant collection (`marketplace_listings_v<n>`, one named vector per model). */
export const LISTINGS_COLLECTION = 'marketplace_listings';

/** Filters a vector search honours (exact payload matches and a price range). */
export interface VectorFilters {
  currency?: string;
  category?: string;
  seller?: string;
  minPrice?: number;
  maxPrice?: number;
}

/** A listing id and its similarity. */
export interface VectorHit {
  id: string;
  score: number;
}

/** Qdrant point id of a listing: its 24-hex ObjectId padded into a UUID. */
function pointId(listingId: string): string {
  const hex = `${listingId}00000000`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Listing vectors for semantic search: title and description embedded through the brain's embedding chain
 * (offline default: the local embedder) into a Qdrant collection opened with the brain's collection helper, with
 * the listing's currency, price, category and seller as payload so searches filter inside Qdrant.
 */
export class ListingVectors {
  private constructor(
    private readonly client: QdrantClient,
    private readonly chain: EmbeddingChain,
    private readonly collection: string,
    private readonly models: string[],
  ) {}

  /** Opens (or creates) the collection for the chain's vector spaces. */
  static async open(client: QdrantClient, chain: EmbeddingChain, logger: Logger): Promise<ListingVectors> {
    const { name, spaces } = await openChunkCollection(client, LISTINGS_COLLECTION, chain.spaces(), logger);
    return new ListingVectors(client, chain, name, [...spaces.keys()]);
  }

  /** Embeds and stores a listing (idempotent: the point id is the listing's). */
  async index(listing: MarketListingRecord): Promise<void> {
    const { vectors, model } = await this.chain.embed(
      [`${listing.title}\n${listing.description}`],
      this.models,
    );
    await this.client.upsert(this.collection, {
      wait: true,
      points: [
        {
          id: pointId(listing._id.toHexString()),
          vector: { [model]: vectors[0] },
          payload: {
            listingId: listing._id.toHexString(),
            currency: listing.price.currency,
            price: listing.price.amount,
            category: listing.category,
            seller: listing.seller,
            model,
          },
        },
      ],
    });
  }

  /** Removes listings that can no longer be bought (sold, cancelled). */
  async remove(listingIds: string[]): Promise<void> {
    if (listingIds.length === 0) return;
    await this.client.delete(this.collection, { wait: true, points: listingIds.map(pointId) });
  }

  /** The `limit` listings nearest to the text `query`. */
  async search(query: string, filters: VectorFilters, limit: number): Promise<VectorHit[]> {
    const { vector, model } = await this.chain.embedQuery(query, this.models);
    return this.nearest(model, vector, filters, limit);
  }

  /** The `limit` listings nearest to listing `listingId` (itself excluded); empty when it has no vector. */
  async similar(listingId: string, limit: number): Promise<VectorHit[]> {
    const [point] = await this.client.retrieve(this.collection, {
      ids: [pointId(listingId)],
      with_vector: true,
      with_payload: ['model'],
    });
    if (!point?.vector) return [];
    const model = String(point.payload?.model);
    const vector = (point.vector as Record<string, number[]>)[model];
    const hits = await this.nearest(model, vector, {}, limit + 1);
    return hits.filter((hit) => hit.id !== listingId).slice(0, limit);
  }

  private async nearest(
    model: string,
    vector: number[],
    filters: VectorFilters,
    limit: number,
  ): Promise<VectorHit[]> {
    const must: object[] = [];
    for (const key of ['currency', 'category', 'seller'] as const)
      if (filters[key]) must.push({ key, match: { value: filters[key] } });
    if (filters.minPrice !== undefined || filters.maxPrice !== undefined)
      must.push({ key: 'price', range: { gte: filters.minPrice, lte: filters.maxPrice } });
    const result = await this.client.query(this.collection, {
      query: vector,
      using: model,
      filter: must.length ? { must } : undefined,
      limit,
      with_payload: ['listingId'],
    });
    return result.points.map((p) => ({ id: String(p.payload?.listingId), score: p.score }));
  }
}
