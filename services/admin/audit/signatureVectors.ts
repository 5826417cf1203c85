import type { QdrantClient } from '@qdrant/js-client-rest';
import type { Logger } from 'pino';
import type { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { openChunkCollection } from '../../../ai/retrieval/qdrantCollection';

/** Prefix of the audit signatures' Qdrant collection (`audit_signatures_v<n>`, one named vector per model). */
export const AUDIT_SIGNATURES_COLLECTION = 'audit_signatures';

/** A signature and its similarity to a query. */
export interface SignatureHit {
  sig: string;
  kind: string;
  score: number;
}

/** Qdrant point id of a signature: its 32 hex characters as a UUID. */
function pointId(sig: string): string {
  return `${sig.slice(0, 8)}-${sig.slice(8, 12)}-${sig.slice(12, 16)}-${sig.slice(16, 20)}-${sig.slice(20, 32)}`;
}

/**
 * Vectors of the audit log's distinct searchable texts, embedded through the brain's embedding chain (offline
 * default: the local embedder) into a Qdrant collection opened with the brain's collection helper; the kind is
 * payload, so a search limited to some kinds filters inside Qdrant.
 */
export class SignatureVectors {
  private constructor(
    private readonly client: QdrantClient,
    private readonly chain: EmbeddingChain,
    private readonly collection: string,
    private readonly models: string[],
  ) {}

  /** Opens (or creates) the collection for the chain's vector spaces. */
  static async open(client: QdrantClient, chain: EmbeddingChain, logger: Logger): Promise<SignatureVectors> {
    const { name, spaces } = await openChunkCollection(
      client,
      AUDIT_SIGNATURES_COLLECTION,
      chain.spaces(),
      logger,
    );
    return new SignatureVectors(client, chain, name, [...spaces.keys()]);
  }

  /** Embeds and stores signatures (idempotent: the point id is the signature). */
  async index(entries: Array<{ sig: string; kind: string; text: string }>): Promise<void> {
    if (entries.length === 0) return;
    const { vectors, model } = await this.chain.embed(
      entries.map((entry) => entry.text),
      this.models,
    );
    await this.client.upsert(this.collection, {
      wait: true,
      points: entries.map((entry, index) => ({
        id: pointId(entry.sig),
        vector: { [model]: vectors[index] },
        payload: { sig: entry.sig, kind: entry.kind, model },
      })),
    });
  }

  /** The `limit` signatures nearest to `query`, optionally only of `kinds`. */
  async search(query: string, kinds: string[] | undefined, limit: number): Promise<SignatureHit[]> {
    const { vector, model } = await this.chain.embedQuery(query, this.models);
    const result = await this.client.query(this.collection, {
      query: vector,
      using: model,
      filter: kinds?.length ? { must: [{ key: 'kind', match: { any: kinds } }] } : undefined,
      limit,
      with_payload: ['sig', 'kind'],
    });
    return result.points.map((point) => ({
      sig: String(point.payload?.sig),
      kind: String(point.payload?.kind),
      score: point.score,
    }));
  }

  /** Removes signatures no event carries any more (after retention pruned them). */
  async remove(sigs: string[]): Promise<void> {
    if (sigs.length === 0) return;
    await this.client.delete(this.collection, { wait: true, points: sigs.map(pointId) });
  }

  /** How many signatures are indexed. */
  async size(): Promise<number> {
    return (await this.client.count(this.collection, { exact: true })).count;
  }
}
