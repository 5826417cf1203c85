import pino, { type Logger } from 'pino';
import type { ChunkRecord } from '../../models/corpusRecords';
import { bulkSlice } from '../../platform/timeSlice';
import { CommunityHierarchy, type Community, type HierarchyOptions } from './communityHierarchy';
import { CorpusGraph, type GraphChange } from './corpusGraph';
import type { ExtractedEntity } from './entityExtractor';
import type { IngestActivity } from '../corpus/ingestActivity';
import { PendingSince, RateMeter } from '../corpus/rateMeter';

/** Writes a community's summary from its title and the texts of the chunks that mention it most. */
export type CommunitySummarizer = (community: Community, texts: string[]) => Promise<string>;

/** Persists graph changes (MongoDB in production); called after each upkeep round. */
export interface GraphSink {
  sync(graph: CorpusGraph, changes: GraphChange, communities: Community[]): Promise<void>;
}

/** Graph upkeep settings. Defaults: 100 chunks a slice between event-loop turns, 3 chunks read per summary. */
export interface GraphIndexOptions {
  chunkText: (chunkId: string) => string | undefined;
  summarize?: CommunitySummarizer;
  sink?: GraphSink;
  hierarchy?: Partial<HierarchyOptions>;
  sliceChunks?: number;
  logger?: Logger;
  /**
   * Ingests to give way to: each round waits until none is running, or at most `holdMs` (the brain's). A round that
   * starts while an ingest still runs (the hold ran out) applies at most `documentsPerBusyRound` documents, so a bulk
   * ingest keeps the event loop and the graph catches up after it; a round in a quiet moment takes the whole queue.
   */
  yieldTo?: Pick<IngestActivity, 'quiet' | 'busy'>;
  /** Longest a round waits for the ingests to pause, in ms. Default 5,000. */
  holdMs?: number;
  /** Documents a round applies while an ingest is running. Default 128. */
  documentsPerBusyRound?: number;
  /**
   * Finds chunks' entities elsewhere (the brain: in the offline embedder's worker thread), one list per chunk in
   * order, as `extractEntities` would; without it they are found on this thread, a slice at a time.
   */
  extract?: (chunks: readonly ChunkRecord[]) => Promise<ExtractedEntity[][]>;
}

/** Build state for /brain/stats. */
export interface GraphStats {
  state: 'empty' | 'building' | 'ready';
  entities: number;
  relations: number;
  communitiesPerLevel: number[];
  pendingDocuments: number;
  /** Documents applied since start-up, their rate (per second, last minute) and the oldest still queued (epoch ms). */
  processedDocuments?: number;
  documentsPerSecond?: number;
  oldestPendingAt?: number | null;
}

/**
 * The GRAPH strategy's index and its upkeep, off the request path: document changes (from the fulltext
 * index's change feed) are queued and coalesced per document, then applied in the background a slice at a
 * time (`sliceChunks` chunks, then a turn of the event loop), so an ingest never waits for the graph and
 * searches keep being served. After the queue drains, only the communities the changed entities belong to
 * are re-clustered (Louvain on a worker thread when the brain passes one), the new communities are
 * summarised, and everything changed is handed to the sink (MongoDB).
 */
export class GraphIndex {
  readonly graph = new CorpusGraph();
  readonly communities: CommunityHierarchy;
  private readonly queue = new Map<string, readonly ChunkRecord[]>();
  private running?: Promise<void>;
  private stopped = false;
  private readonly logger: Logger;
  private readonly meter = new RateMeter();
  private readonly pendingSince = new PendingSince();

  constructor(private readonly options: GraphIndexOptions) {
    this.communities = new CommunityHierarchy(options.hierarchy);
    this.logger = options.logger ?? pino({ level: 'silent' });
  }

  /** Queues a document change (an empty list removes it) and starts the upkeep if idle. */
  enqueue(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.queue.set(documentId, chunks);
    this.pendingSince.queued(documentId);
    if (this.stopped) return;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.size > 0) this.enqueue(...this.queue.entries().next().value!);
    });
  }

  /** Resolves once the queue is empty and communities are up to date (tests, benches). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Shutdown: the group of documents in flight is applied (with its communities and sink writes) and no other is
   * taken. What is still queued is not lost: at the next start the fulltext rebuild feeds every stored document
   * again. (Draining a 100k-chunk backlog took minutes, past any orchestrator's grace period.)
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  stats(): GraphStats {
    const { entities, relations } = this.graph.counts();
    const building = this.running !== undefined;
    return {
      state: building ? 'building' : entities === 0 ? 'empty' : 'ready',
      entities,
      relations,
      communitiesPerLevel: this.communities.perLevel(),
      pendingDocuments: this.queue.size,
      processedDocuments: this.meter.total,
      documentsPerSecond: this.meter.perSecond(),
      oldestPendingAt: this.pendingSince.oldest(),
    };
  }

  /** True while a change of the document waits to be applied. */
  isPending(documentId: string): boolean {
    return this.pendingSince.has(documentId);
  }

  private async drain(): Promise<void> {
    await this.options.yieldTo?.quiet(this.options.holdMs ?? 5_000);
    const limit = this.options.yieldTo?.busy ? (this.options.documentsPerBusyRound ?? 128) : Infinity;
    const slice = this.options.sliceChunks ?? 100;
    for (let taken = 0; this.queue.size > 0 && taken < limit && !this.stopped;) {
      // A group of documents of about `slice` chunks: their entities are found in one task (or a slice at a time
      // on this thread), then added to the graph in the process's shared bulk budget.
      const group: [string, readonly ChunkRecord[]][] = [];
      for (let size = 0; this.queue.size > 0 && taken < limit && size < slice; taken++) {
        const [documentId, chunks] = this.queue.entries().next().value!;
        this.queue.delete(documentId);
        this.pendingSince.done(documentId);
        this.meter.add(1);
        group.push([documentId, chunks]);
        size += chunks.length + 1;
      }
      const extracted = this.options.extract ? await this.extractAll(group, slice) : undefined;
      let at = 0;
      for (const [documentId, chunks] of group) {
        this.graph.startDocument(
          documentId,
          chunks.map((chunk) => chunk.id),
        );
        // A large document is added a slice at a time too (1,000 chunks of entity extraction held the loop).
        for (let from = 0; from < chunks.length; from += slice) {
          const part = chunks.slice(from, from + slice);
          this.graph.addChunks(documentId, part, extracted?.slice(at, at + part.length));
          at += part.length;
          if (from + slice < chunks.length) await bulkSlice();
        }
        await bulkSlice();
      }
    }
    const changes = this.graph.takeChanges();
    if (changes.entities.size === 0) return;
    try {
      const created = await this.communities.update(this.graph, changes.entities);
      // Summaries are written on the event loop (offline, TextRank over a few chunks each), in the shared bulk
      // budget, so a large ingest's hundreds of new communities do not hold other requests (one loop took 0.3-0.8 s).
      for (const community of created) {
        if (!this.options.summarize) break;
        await bulkSlice();
        community.summary = await this.options.summarize(community, this.textsOf(community));
      }
      await this.options.sink?.sync(this.graph, changes, this.communities.all());
    } catch (error) {
      this.logger.error({ err: error }, 'graph upkeep failed; the next change retries');
    }
  }

  /** The entities of a group's chunks, in order, found `slice` chunks a task by `extract`. */
  private async extractAll(
    group: [string, readonly ChunkRecord[]][],
    slice: number,
  ): Promise<ExtractedEntity[][]> {
    const chunks = group.flatMap(([, documentChunks]) => documentChunks);
    const parts: Promise<ExtractedEntity[][]>[] = [];
    for (let from = 0; from < chunks.length; from += slice)
      parts.push(this.options.extract!(chunks.slice(from, from + slice)));
    return (await Promise.all(parts)).flat();
  }

  /** Texts of the 3 chunks mentioning the community's members most. */
  private textsOf(community: Community): string[] {
    const score = new Map<string, number>();
    for (const key of community.members) {
      for (const [chunkId, count] of this.graph.entities.get(key)?.chunks ?? [])
        score.set(chunkId, (score.get(chunkId) ?? 0) + count);
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .flatMap(([chunkId]) => this.options.chunkText(chunkId) ?? []);
  }
}
