import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino, { type Logger } from 'pino';
import { INDEX_NAMES, type ChunkRecord, type IndexName } from '../../models/corpusRecords';
import type { EmbeddingProvider } from '../embeddings/provider';
import { extractiveClusterSummary, type ClusterSummarizer } from './clusterSummary';
import type { TreeUpdate } from './raptorNode';
import { RaptorTree, type RaptorTreeOptions } from './raptorTree';
import type { IngestActivity } from '../corpus/ingestActivity';
import { PendingSince, RateMeter } from '../corpus/rateMeter';

/** Persists a tree's summary nodes (MongoDB and Qdrant in production); called after each upkeep round. */
export interface RaptorSink {
  sync(tree: RaptorTree, update: TreeUpdate, model: string): Promise<void>;
}

/** RAPTOR upkeep settings. Default summariser: the extractive one with the BM25 index's idf. */
export interface RaptorIndexOptions {
  /** The tree's vector space: the offline local embedder in the brain, so a tree never needs the network. */
  embedder: Pick<EmbeddingProvider, 'model' | 'embed'>;
  summarize?: ClusterSummarizer;
  /** Term idf for the default extractive summariser. */
  idf?: (term: string) => number;
  sink?: RaptorSink;
  tree?: Partial<RaptorTreeOptions>;
  /** Stale summaries are rewritten once no change has arrived for this long, in ms. Default 1,000. */
  quietMs?: number;
  /** Longest a summary stays stale while changes keep arriving (a bulk ingest), in ms. Default 30,000. */
  maxStaleMs?: number;
  logger?: Logger;
  /** Ingests to give way to: each round waits until none is running, or at most `holdMs` (the brain's). */
  yieldTo?: Pick<IngestActivity, 'quiet'>;
  /** Longest a round waits for the ingests to pause, in ms. Default 5,000. */
  holdMs?: number;
  /** Documents applied in one round at most (the rest in the next). Default 128. */
  documentsPerRound?: number;
}

/** Texts a tree embeds per call of its embedder: one task of the offline embedder's thread. */
const EMBED_PIECE = 64;

/**
 * A tree's texts embedded `EMBED_PIECE` at a time, each piece's vectors made Float32Arrays as it arrives: a settle
 * embeds thousands of summaries at once, and converting all their vectors in one go held the event loop for 0.5-1 s
 * (a profile at 20k chunks, issue 37, stop 47); the pieces also leave the loop a turn between them.
 */
async function embedInPieces(
  embedder: Pick<EmbeddingProvider, 'embed'>,
  texts: string[],
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let at = 0; at < texts.length; at += EMBED_PIECE) {
    for (const vector of await embedder.embed(texts.slice(at, at + EMBED_PIECE)))
      out.push(Float32Array.from(vector));
  }
  return out;
}

/**
 * Build state for /brain/stats: `empty` (no chunks), `building` (the first tree is being built, searches
 * see none yet), `stale` (a tree answers but queued changes are not in it yet, or the last upkeep failed),
 * `ready`.
 */
export interface RaptorStats {
  state: 'empty' | 'building' | 'stale' | 'ready';
  /** Nodes per level over every index's tree; index 0 counts the leaves (chunks). */
  nodesPerLevel: number[];
  pendingDocuments: number;
  /** Summaries written (created or re-summarised) since start-up. */
  summariesWritten: number;
  /** Documents applied since start-up, their rate (per second, last minute) and the oldest still pending (epoch ms). */
  processedDocuments?: number;
  documentsPerSecond?: number;
  oldestPendingAt?: number | null;
}

/**
 * The RAPTOR strategy's trees (one per index) and their upkeep, off the request path like the graph's:
 * document changes from the fulltext index's change feed are queued and coalesced per document, then applied
 * in the background, one batch per round. Summaries whose children changed are rewritten once no change has
 * arrived for 1 s (or after 30 s of a continuous stream), once per burst. The work yields to the event loop
 * throughout: the embedder embeds in time slices, and k-means and the summaries take a turn of the loop after every
 * 8 ms of work. A failed round is logged and leaves the state `stale`; the next change retries.
 */
export class RaptorIndex {
  readonly trees = new Map<IndexName, RaptorTree>();
  private readonly queue = new Map<string, readonly ChunkRecord[]>();
  private running?: Promise<void>;
  private built = false;
  private failed = false;
  private summaries = 0;
  private readonly meter = new RateMeter();
  private readonly pendingSince = new PendingSince();
  private readonly logger: Logger;
  private readonly prefix = randomBytes(3).toString('hex');
  private nextId = 1;
  private lastChangeAt = 0;
  /** The round that settles stale summaries once the quiet period has passed, while it waits. */
  private settleWait?: Promise<void>;
  /** Ends the settle wait at once (its timer cleared, its waiters released). */
  private endSettle?: () => void;
  private stopped = false;

  constructor(private readonly options: RaptorIndexOptions) {
    this.logger = options.logger ?? pino({ level: 'silent' });
    const summarize: ClusterSummarizer =
      options.summarize ?? (async (members) => extractiveClusterSummary(members, { idf: options.idf }));
    for (const index of INDEX_NAMES) {
      this.trees.set(
        index,
        new RaptorTree(
          index,
          {
            embed: (texts) => embedInPieces(options.embedder, texts),
            summarize,
            newId: (idx, level) => `${idx}:${level}:${this.prefix}${(this.nextId++).toString(36)}`,
          },
          options.tree,
        ),
      );
    }
  }

  /** The tree's vector space (the embedder's model). */
  get model(): string {
    return this.options.embedder.model;
  }

  /** Embeds a query in the trees' space. */
  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await this.options.embedder.embed([query]);
    return Float32Array.from(vector);
  }

  /** Queues a document change (an empty list removes it) and starts the upkeep if idle. */
  enqueue(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.queue.set(documentId, chunks);
    this.pendingSince.queued(documentId);
    this.lastChangeAt = performance.now();
    this.startRound();
  }

  /** Resolves once the queue is empty and the trees are up to date, stale summaries included (tests, benches). */
  async whenIdle(): Promise<void> {
    while (this.running || this.settleWait) await (this.running ?? this.settleWait);
  }

  /**
   * Shutdown: lets the round in flight finish and starts no other. What is still queued is not lost: at the next
   * start the fulltext rebuild feeds every stored document again. (Draining a 100k-chunk backlog took minutes.)
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.endSettle?.();
    await this.running;
  }

  private startRound(): void {
    if (this.stopped) return;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.size > 0) this.startRound();
      // A failed round waits for the next change, as before (no retry every quietMs while a store is down).
      else if (!this.failed) this.scheduleSettle();
    });
  }

  /** With stale summaries and nothing queued, runs a round once no change has arrived for `quietMs`. */
  private scheduleSettle(): void {
    const stale = [...this.trees.values()].some((tree) => tree.staleness().nodes > 0);
    if (this.settleWait || !stale || this.stopped) return;
    const wait = Math.max(0, this.quietMs - (performance.now() - this.lastChangeAt));
    this.settleWait = new Promise((resolve) => {
      this.endSettle = () => {
        clearTimeout(timer);
        this.settleWait = undefined;
        this.endSettle = undefined;
        resolve();
      };
      const timer = setTimeout(() => {
        this.endSettle?.();
        this.startRound();
      }, wait);
    });
  }

  private get quietMs(): number {
    return this.options.quietMs ?? 1_000;
  }

  stats(): RaptorStats {
    const nodesPerLevel: number[] = [];
    for (const tree of this.trees.values())
      tree.nodesPerLevel().forEach((n, level) => (nodesPerLevel[level] = (nodesPerLevel[level] ?? 0) + n));
    const busy = this.running !== undefined || this.queue.size > 0 || this.settleWait !== undefined;
    const leaves = nodesPerLevel[0] ?? 0;
    const state =
      !this.built && busy ? 'building' : busy || this.failed ? 'stale' : leaves === 0 ? 'empty' : 'ready';
    return {
      state,
      nodesPerLevel: leaves === 0 ? [] : nodesPerLevel,
      pendingDocuments: this.pendingSince.count,
      summariesWritten: this.summaries,
      processedDocuments: this.meter.total,
      documentsPerSecond: this.meter.perSecond(),
      oldestPendingAt: this.pendingSince.oldest(),
    };
  }

  /** True while a change of the document is queued or being applied. */
  isPending(documentId: string): boolean {
    return this.pendingSince.has(documentId);
  }

  private async store(tree: RaptorTree, update: TreeUpdate): Promise<void> {
    this.summaries += update.written.length;
    if (update.written.length + update.removed.length > 0)
      await this.options.sink?.sync(tree, update, this.model);
  }

  /** A document's change is in its tree; it stays pending if it was queued again meanwhile. */
  private settled(documentId: string): void {
    this.meter.add(1);
    if (!this.queue.has(documentId)) this.pendingSince.done(documentId);
  }

  private async drain(): Promise<void> {
    await this.options.yieldTo?.quiet(this.options.holdMs ?? 5_000);
    if (this.stopped) return;
    // A bounded round: a backlog taken whole (after a hold) would rebuild the summary levels from scratch once it
    // is a third of the leaves, k-means over every leaf on the loop.
    const batch: [string, readonly ChunkRecord[]][] = [];
    for (const entry of this.queue) {
      if (batch.length >= (this.options.documentsPerRound ?? 128)) break;
      batch.push(entry);
    }
    for (const [documentId] of batch) this.queue.delete(documentId);

    const byIndex = new Map<IndexName, Array<{ documentId: string; chunks: readonly ChunkRecord[] }>>();
    for (const [documentId, chunks] of batch) {
      const index =
        chunks[0]?.index ?? [...this.trees.values()].find((tree) => tree.hasDocument(documentId))?.index;
      if (!index) {
        this.settled(documentId);
        continue;
      }
      byIndex.set(index, [...(byIndex.get(index) ?? []), { documentId, chunks }]);
    }
    try {
      for (const [index, changes] of byIndex) {
        const tree = this.trees.get(index)!;
        await this.store(tree, await tree.apply(changes));
        for (const change of changes) this.settled(change.documentId);
      }
      // Stale summaries are rewritten once no change has arrived for quietMs, or after maxStaleMs.
      const maxStaleMs = this.options.maxStaleMs ?? 30_000;
      for (const tree of this.trees.values()) {
        const { nodes, since } = tree.staleness();
        const now = performance.now();
        const quiet = this.queue.size === 0 && now - this.lastChangeAt >= this.quietMs;
        if (nodes > 0 && (quiet || now - since >= maxStaleMs)) await this.store(tree, await tree.settle());
      }
      this.failed = false;
    } catch (error) {
      this.failed = true;
      this.logger.error({ err: error }, 'raptor upkeep failed; the next change retries');
    }
    this.built = true;
  }
}
