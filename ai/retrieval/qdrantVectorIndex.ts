import { createHash } from 'node:crypto';
import type { QdrantClient } from '@qdrant/js-client-rest';
import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock';
import type { IndexName } from '../../models/corpusRecords';
import { openChunkCollection } from './qdrantCollection';
import type { ChunkVector, VectorIndex, VectorMatch, VectorSpace, VectorSpaceStats } from './vectorIndex';

/** Settings. Defaults: collection prefix `brain_chunks`, space counts cached 5 s, upserts of 256 points. */
export interface QdrantVectorIndexOptions {
  collectionPrefix: string;
  /** How long `spaces()` may reuse counts when this process wrote nothing (other processes' writes). */
  countsTtlMs: number;
  batchSize: number;
  clock: Clock;
  logger: Logger;
}

/** A point per (model, chunk): the first 128 bits of sha256(`model\nchunkId`) as a UUID. */
export function pointIdFor(model: string, chunkId: string): string {
  const hex = createHash('sha256').update(`${model}\n${chunkId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

type Filter = { must: Record<string, unknown>[] };
const matchAny = (key: string, values: readonly string[]) => ({ key, match: { any: [...values] } });
const matchValue = (key: string, value: string) => ({ key, match: { value } });

/**
 * The SEMANTIC strategy's vectors in Qdrant through the official client (`@qdrant/js-client-rest`; the
 * embedded engine by default). One collection with a named Cosine vector per embedding model (see
 * `openChunkCollection`); each point holds one chunk's vector in one space, with payload `{ chunkId,
 * documentId, index, model }`, all keyword-indexed. A search uses the model's named vector and, with an
 * index filter, `index` ∈ indexes. Call `open(spaces)` once before use.
 */
export class QdrantVectorIndex implements VectorIndex {
  private readonly options: QdrantVectorIndexOptions;
  private collection = '';
  private dimensions = new Map<string, number>();
  private counts?: { at: number; spaces: VectorSpaceStats[] };
  /** The count in flight, shared by concurrent callers, and the write epoch it started in. */
  private counting?: { epoch: number; spaces: Promise<VectorSpaceStats[]> };
  /** Bumped by every write of this process: counts taken before a write are never kept. */
  private epoch = 0;

  constructor(
    private readonly client: QdrantClient,
    options: Partial<QdrantVectorIndexOptions> = {},
  ) {
    this.options = {
      collectionPrefix: 'brain_chunks',
      countsTtlMs: 5_000,
      batchSize: 256,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      ...options,
    };
  }

  /** Opens (creating or extending) the collection with at least these spaces. */
  async open(spaces: readonly VectorSpace[]): Promise<void> {
    const opened = await openChunkCollection(
      this.client,
      this.options.collectionPrefix,
      spaces,
      this.options.logger,
    );
    this.collection = opened.name;
    this.dimensions = opened.spaces;
    this.forgetCounts();
  }

  /** The Qdrant collection in use (`<prefix>_v<n>`). */
  get collectionName(): string {
    return this.collection;
  }

  async ensureSpace(space: VectorSpace): Promise<void> {
    const size = this.dimensions.get(space.model);
    if (size === space.dimensions) return;
    await this.open([...[...this.dimensions].map(([model, dimensions]) => ({ model, dimensions })), space]);
  }

  async upsert(model: string, points: readonly ChunkVector[]): Promise<void> {
    this.forgetCounts();
    for (let start = 0; start < points.length; start += this.options.batchSize) {
      const batch = points.slice(start, start + this.options.batchSize).map((p) => ({
        id: pointIdFor(model, p.chunkId),
        vector: { [model]: [...p.vector] },
        payload: { chunkId: p.chunkId, documentId: p.documentId, index: p.index, model },
      }));
      await this.client.upsert(this.collection, { wait: true, points: batch });
    }
  }

  async search(
    model: string,
    vector: readonly number[],
    options: { indexes?: readonly IndexName[]; limit: number },
  ): Promise<VectorMatch[]> {
    if (!this.dimensions.has(model) || options.limit <= 0) return [];
    const filter = options.indexes?.length ? { must: [matchAny('index', options.indexes)] } : undefined;
    const result = await this.client.query(this.collection, {
      query: [...vector],
      using: model,
      filter,
      limit: options.limit,
      with_payload: ['chunkId'],
    });
    return result.points.map((p) => ({ chunkId: String(p.payload?.chunkId), score: p.score }));
  }

  async deleteChunks(chunkIds: readonly string[], model?: string): Promise<void> {
    if (chunkIds.length === 0) return;
    const must = [matchAny('chunkId', chunkIds), ...(model ? [matchValue('model', model)] : [])];
    await this.deleteWhere({ must });
  }

  async deleteByDocument(documentId: string): Promise<void> {
    await this.deleteWhere({ must: [matchValue('documentId', documentId)] });
  }

  /**
   * Spaces with exact counts; reused for `countsTtlMs` unless this process wrote in between. Concurrent
   * callers share one count (a count scans the collection; every semantic search asks).
   */
  async spaces(): Promise<VectorSpaceStats[]> {
    const now = this.options.clock.now();
    if (this.counts && now - this.counts.at < this.options.countsTtlMs) return this.counts.spaces;
    if (this.counting?.epoch !== this.epoch) {
      const epoch = this.epoch;
      const spaces = this.countSpaces().then((counted) => {
        if (this.epoch === epoch) this.counts = { at: now, spaces: counted };
        return counted;
      });
      this.counting = { epoch, spaces };
      const forget = () => {
        if (this.counting?.spaces === spaces) this.counting = undefined;
      };
      spaces.then(forget, forget);
    }
    return this.counting!.spaces;
  }

  private countSpaces(): Promise<VectorSpaceStats[]> {
    return Promise.all(
      [...this.dimensions].map(async ([model, dimensions]) => {
        const { count } = await this.client.count(this.collection, {
          filter: { must: [matchValue('model', model)] },
          exact: true,
        });
        return { model, dimensions, count };
      }),
    );
  }

  private forgetCounts(): void {
    this.counts = undefined;
    this.epoch++;
  }

  private async deleteWhere(filter: Filter): Promise<void> {
    this.forgetCounts();
    await this.client.delete(this.collection, { wait: true, filter });
  }
}
