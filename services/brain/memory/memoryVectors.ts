import { GroupCommit } from '../../../platform/stores/groupCommit';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { VectorSpace } from '../../../ai/retrieval/vectorIndex';
import { openMemoryCollection } from './memoryCollection';

const matchValue = (key: string, value: string) => ({ key, match: { value } });
const matchAny = (key: string, values: readonly string[]) => ({ key, match: { any: [...values] } });

/** One point as Qdrant stores it. */
interface VectorPoint {
  id: string;
  vector: Record<string, number[]>;
  payload: Record<string, string>;
}

/**
 * Memory vectors in Qdrant (collection `<BRAIN_QDRANT_COLLECTION>_memories`): one point per memory, its id the
 * memory's id, a named Cosine vector per embedding model, payload `{subject, tier, model}`. Every search is
 * filtered to one subject, so the collection is multitenant as Qdrant recommends: no global HNSW graph (`m: 0`),
 * `subject` a keyword index marked `is_tenant`, and a graph per subject (`payload_m: 16`) once a subject has more
 * vectors than a full scan handles well (Qdrant's `full_scan_threshold`, about 6,600 of 384 dimensions); smaller
 * subjects are scanned exactly. `tier` is not indexed: an index would get graphs of its own, each as large as a
 * global one.
 */
export class MemoryVectors {
  private spaces = new Set<string>();
  /** Concurrent upserts share requests (at most 256 points each). */
  private readonly writer = new GroupCommit<VectorPoint>(
    async (points) => {
      await this.upsertWithRetry(points);
      return [];
    },
    { maxBatch: 256 },
  );

  /** The collection's current version (`<base>` or `<base>_v<n>`), known once open. */
  collection: string;

  constructor(
    private readonly client: QdrantClient,
    private readonly base: string,
  ) {
    this.collection = base;
  }

  /**
   * Opens the newest version of the collection, moving to a new version when a configured space is missing
   * (memoryCollection.ts): `<base>` or `<base>_v<n>`.
   */
  async open(spaces: readonly VectorSpace[]): Promise<void> {
    const opened = await openMemoryCollection(this.client, this.base, spaces);
    this.collection = opened.name;
    this.spaces = new Set(opened.spaces);
  }

  /** Points in the collection (Qdrant's `points_count`, no scan). */
  async size(): Promise<number> {
    const info = await this.client.getCollection(this.collection);
    return info.points_count ?? 0;
  }

  /** Models the collection has a space for. */
  models(): string[] {
    return [...this.spaces];
  }

  /**
   * Stores memory vectors of one model (ignored for a model the collection has no space for). Concurrent calls are
   * batched: points queued while a write is in flight go out together in the next one (at most 256 a request), and
   * each call resolves once its points are written.
   */
  async upsert(
    model: string,
    points: readonly { id: string; subject: string; tier: string; vector: number[] }[],
  ): Promise<void> {
    if (!this.spaces.has(model) || points.length === 0) return;
    await Promise.all(
      points.map((p) =>
        this.writer.submit({
          id: p.id,
          vector: { [model]: p.vector },
          payload: { subject: p.subject, tier: p.tier, model },
        }),
      ),
    );
  }

  /**
   * One upsert, retried twice at once when the connection failed before an answer (a reset keep-alive connection:
   * `fetch failed`); an upsert of the same points is idempotent. Answers from Qdrant (4xx, 5xx) are not retried.
   */
  private async upsertWithRetry(points: VectorPoint[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.upsert(this.collection, { wait: true, points });
        return;
      } catch (error) {
        const connectionFailed = error instanceof TypeError && error.message === 'fetch failed';
        if (!connectionFailed || attempt >= 3) throw error;
      }
    }
  }

  /** The subject's nearest memories in the given tiers, best first (cosine). */
  async search(
    model: string,
    vector: number[],
    filter: { subject: string; tiers: readonly string[] },
    limit: number,
  ): Promise<{ id: string; score: number }[]> {
    if (!this.spaces.has(model) || limit <= 0) return [];
    const result = await this.client.query(this.collection, {
      query: vector,
      using: model,
      filter: { must: [matchValue('subject', filter.subject), matchAny('tier', filter.tiers)] },
      limit,
      with_payload: false,
    });
    return result.points.map((p) => ({ id: String(p.id), score: p.score }));
  }

  /** Changes the tier recorded with memories' vectors. */
  async setTier(ids: readonly string[], tier: string): Promise<void> {
    if (ids.length === 0) return;
    await this.client.setPayload(this.collection, { wait: true, points: [...ids], payload: { tier } });
  }

  /** Removes memories' vectors. */
  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.client.delete(this.collection, { wait: true, points: [...ids] });
  }

  /** Removes every vector of a subject; answers how many there were. */
  async deleteSubject(subject: string): Promise<number> {
    const filter = { must: [matchValue('subject', subject)] };
    const { count } = await this.client.count(this.collection, { filter, exact: true });
    if (count > 0) await this.client.delete(this.collection, { wait: true, filter });
    return count;
  }
}
