import { LRUCache } from 'lru-cache';
import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import type { TokenCounter } from '../../../ai/chunking/tokenCounter';
import type { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import type { EmbeddingProvider } from '../../../ai/embeddings/provider';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { cosine } from '../../../ai/memory/recallScoring';
import { SubjectTextIndex, type IndexedMemory } from '../../../ai/memory/subjectTextIndex';
import { timeOrderedId } from '../../../ai/memory/timeOrderedId';
import { memoryModel, type MemoryDocument, type StoredMemoryTier } from '../../../models/Memory';
import type { Clock } from '../../../platform/clock';
import { GroupCommit, insertGroup } from '../../../platform/stores/groupCommit';
import { memoryOperations } from '../../../platform/metrics';
import type { SubjectGraph } from '../graph/subjectGraph';
import { memoryError } from './errors';
import { screenSecrets } from './secretScreen';
import { contentHash, recordOf } from './memoryRecords';
import { forgetMemories, type MemoryForgetting } from './memoryForgetting';
import { recallMemories, type RecallPorts } from './memoryRecall';
import type {
  ForgetTarget,
  ListInput,
  MemoryRecord,
  MemoryService,
  RecallInput,
  RecallResult,
  RememberInput,
  RememberResult,
} from './memoryService';
import type { MemoryVectors } from './memoryVectors';
import { MemoryVectorRepair } from './memoryVectorRepair';
import type { WorkingMemoryStore } from './workingMemory';

/**
 * Memories the near-duplicate search scores at most (the newest holding the text's rarest terms). Unbounded, its
 * BM25 search at 100k memories of one subject scanned most of the index when the text's words were common.
 */
const DUPLICATE_CANDIDATES = 2000;

/**
 * Texts whose offline embedding the near-duplicate check keeps (about 3 KB each). A subject's newest memories are
 * the candidates of its next remember, and both people of a social interaction remember the same text, so most
 * lookups hit: a sync bench spent a tenth of its allocations embedding the same candidates again.
 */
const NEAR_DUPLICATE_VECTORS = 4096;

/** What the memory service is built from. */
export interface MemoryKeeperOptions {
  mongo: Connection;
  vectors: MemoryVectors;
  embeddings: Pick<EmbeddingChain, 'embed' | 'embedQuery'>;
  working: WorkingMemoryStore;
  graph: SubjectGraph;
  tokens: TokenCounter;
  clock: Clock;
  logger: Logger;
  /** Working-tier budget per session in tokens (BRAIN_WORKING_MEMORY_MAX_TOKENS, 128,000). */
  workingBudget: number;
  /** Local-embedding cosine at or above which a text merges into an existing memory (0.9). */
  duplicateSimilarity: number;
  /** Redact private keys and mnemonics instead of refusing them (BRAIN_MEMORY_REDACT_SECRETS, off). */
  redactSecrets: boolean;
  /**
   * The memories' own vector space (BRAIN_MEMORY_EMBEDDER=neural: the sentence encoder), whose cosine recall scores
   * meaning by. Without it, vectors come from the embedding chain and recall scores meaning by the hash embedding.
   */
  encoder?: EmbeddingProvider & {
    embedQuery(text: string): Promise<number[]>;
    /** Vectors nobody waits for (memories' vectors after remember), at the lowest priority [`embed`]. */
    embedBackground?(texts: string[]): Promise<number[][]>;
  };
}

// Where they were first defined: the consolidation and security areas import them from here.
export { contentHash, recordOf } from './memoryRecords';

/**
 * The memory service (SPEC 2.9) on MongoDB (records), Qdrant (vectors), the in-process BM25 per subject, Redis or
 * the process (working tier) and the knowledge graph (semantic facts). See services/brain/memory/README.md.
 */
export class MemoryKeeper implements MemoryService {
  readonly memories: Model<MemoryDocument>;
  readonly text = new SubjectTextIndex();
  readonly local = new LocalHashEmbedder();
  /** Offline embeddings of recent texts, for the near-duplicate check (`NEAR_DUPLICATE_VECTORS`). */
  private readonly localVectors = new LRUCache<string, number[]>({ max: NEAR_DUPLICATE_VECTORS });
  private readonly loading = new Map<string, Promise<void>>();
  /** Embeddings in flight by text: the two memories of one social interaction share their text and one call. */
  private readonly embedding = new Map<string, Promise<{ model: string; vector: number[] }>>();
  /** Subjects asked for in one turn of the event loop are loaded together (`loadSubjects`). */
  private readonly loads = new GroupCommit<string, undefined>((subjects) => this.loadSubjects(subjects), {
    gatherTurn: true,
    maxBatch: 256,
  });
  /** Concurrent remembers' records, inserted together (the driver's collection: the record is built typed). */
  private readonly inserts: GroupCommit<MemoryDocument>;
  /** A remember's intent across MongoDB and Qdrant, and the repair of what a crash left half-done. */
  readonly vectorRepair: MemoryVectorRepair;

  /** What recall and forget read and write (the keeper's own stores and indexes). */
  private readonly recallPorts: RecallPorts;
  private readonly forgetPorts: MemoryForgetting;

  constructor(readonly options: MemoryKeeperOptions) {
    this.memories = memoryModel(options.mongo);
    this.inserts = insertGroup<MemoryDocument>(this.memories.collection as never);
    const writer = {
      embedMany: (contents: string[]) => this.embedInBackground(contents),
      upsert: (model: string, points: { id: string; subject: string; tier: string; vector: number[] }[]) =>
        options.vectors.upsert(model, points),
    };
    this.vectorRepair = new MemoryVectorRepair(
      this.memories.collection as never,
      writer,
      options.clock,
      options.logger,
    );
    const { vectors, embeddings, graph, clock, working } = options;
    this.recallPorts = {
      memories: this.memories,
      text: this.text,
      // The near-duplicate check's cache of recent texts' embeddings: a recall's candidates are often recent.
      local: { embedOne: (text) => this.localVector(text) },
      vectors,
      embeddings,
      // Read at each recall: a bench swaps the encoder after opening.
      get encoder() {
        return options.encoder;
      },
      graph,
      clock,
      working: (subject, sessionId) => working.list(subject, sessionId),
    };
    this.forgetPorts = {
      memories: this.memories,
      text: this.text,
      vectors,
      graph,
      working,
      recall: (input) => this.recall(input),
    };
  }

  async init(): Promise<void> {
    await this.memories.init();
  }

  async remember(input: RememberInput): Promise<RememberResult> {
    const content = screenSecrets(input.content, this.options.redactSecrets);
    const tier = input.tier ?? 'episodic';
    memoryOperations.inc({ operation: 'remember', tier });
    const now = new Date(this.options.clock.now());
    const record: MemoryRecord = {
      id: timeOrderedId(now.getTime()),
      subject: input.subject,
      tier,
      content,
      session_id: input.session_id ?? null,
      kind: input.kind ?? null,
      tags: [...new Set(input.tags ?? [])],
      importance: input.importance ?? 0.5,
      occurred_at: input.occurred_at ?? now,
      created_at: now,
      last_seen: now,
      seen_count: 1,
    };
    if (tier === 'working') {
      if (!record.session_id)
        throw memoryError('MEMORY_SESSION_REQUIRED', 'Working memory needs a session_id');
      await this.appendWorking(record);
      return { memory: record, merged: false };
    }
    return this.store(record, tier, input.duplicates ?? 'near');
  }

  /**
   * Stores a record in MongoDB, or merges it into an exact repeat of the same subject and tier, or (`near`) into a
   * near-duplicate.
   */
  async store(
    record: MemoryRecord,
    tier: StoredMemoryTier,
    duplicates: 'near' | 'exact' = 'near',
  ): Promise<RememberResult> {
    const hash = contentHash(record.content);
    const duplicate = await this.findDuplicate(record, tier, hash, duplicates === 'near');
    if (duplicate) {
      const merged = await this.memories
        .findOneAndUpdate(
          { _id: duplicate },
          { $inc: { seen_count: 1 }, $max: { last_seen: record.created_at, importance: record.importance } },
          { returnDocument: 'after' },
        )
        .lean();
      // Its vector not written yet: on the neural path it is on its way (queued again, in case a crash dropped it);
      // on the chain path a remember killed before its vector was stored, finished before this one answers.
      if (merged && this.vectorRepair.isPending(merged)) {
        if (this.options.encoder) this.vectorRepair.later(merged._id);
        else await this.vectorRepair.finish([merged._id]);
      }
      if (merged) return { memory: recordOf(merged), merged: true };
    }
    // The neural path stores first and embeds after (the encoder's rate is not remember's): the memory is found by
    // its words at once and by its meaning once the background pass has written its vector.
    const embedded = this.options.encoder ? undefined : await this.embedContent(record.content);
    // Field by field: a rest-and-spread copy of the record was a tenth of the main thread's remember.
    const doc: MemoryDocument = {
      _id: record.id,
      subject: record.subject,
      tier,
      content: record.content,
      content_hash: hash,
      session_id: record.session_id,
      kind: record.kind,
      tags: record.tags,
      importance: record.importance,
      occurred_at: record.occurred_at,
      created_at: record.created_at,
      last_seen: record.last_seen,
      seen_count: record.seen_count,
      vector_model: embedded?.model ?? null,
      consolidated_at: null,
      summarizes: [],
    };
    await this.inserts.submit(this.vectorRepair.flagged(doc));
    this.text.add(doc.subject, { id: doc._id, tier, content: doc.content, hash });
    const scope = doc.subject as `${string}:${string}`;
    await Promise.all([
      embedded &&
        this.options.vectors.upsert(embedded.model, [
          { id: doc._id, subject: doc.subject, tier, vector: embedded.vector },
        ]),
      this.options.graph.recordMemory(scope, doc._id, doc.session_id, doc.content, doc.occurred_at),
    ]);
    if (embedded) await this.vectorRepair.stored(doc);
    else {
      this.vectorRepair.unflag(doc);
      this.vectorRepair.later(doc._id);
    }
    return { memory: recordOf(doc), merged: false };
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    for (const tier of input.tiers ?? ['all']) memoryOperations.inc({ operation: 'recall', tier });
    await this.ensureLoaded(input.subject);
    return recallMemories(this.recallPorts, input);
  }

  async forget(subject: string, target: ForgetTarget): Promise<string[]> {
    await this.ensureLoaded(subject);
    const ids = await forgetMemories(this.forgetPorts, subject, target);
    memoryOperations.inc({ operation: 'forget', tier: 'any' }, ids.length);
    return ids;
  }

  async get(subject: string, id: string): Promise<MemoryRecord | null> {
    const doc = await this.memories.findOne({ _id: id, subject }).lean();
    return doc ? recordOf(doc) : null;
  }

  async list(input: ListInput): Promise<{ memories: MemoryRecord[]; next_cursor: string | null }> {
    const limit = input.limit ?? 50;
    const filter: Record<string, unknown> = { subject: input.subject };
    if (input.tier) filter.tier = input.tier;
    if (input.session_id) filter.session_id = input.session_id;
    // One tag as an equality on the multikey {subject, tags, _id} index; several as $all.
    if (input.tags?.length) filter.tags = input.tags.length === 1 ? input.tags[0] : { $all: input.tags };
    if (input.cursor) filter._id = { $lt: input.cursor };
    const docs = await this.memories
      .find(filter)
      .sort({ _id: -1 })
      .limit(limit + 1)
      .lean();
    const page = docs.slice(0, limit);
    return {
      memories: page.map(recordOf),
      next_cursor: docs.length > limit ? page[page.length - 1]._id : null,
    };
  }

  /** The session's working memory, oldest first. */
  working(subject: string, sessionId: string): Promise<MemoryRecord[]> {
    return this.options.working.list(subject, sessionId);
  }

  /**
   * A memory text's vector in the memories' space (the encoder's, or the chain's); concurrent calls for the same text
   * share one (nothing is kept once it is answered). Everything that stores a memory vector goes through it.
   */
  embedContent(content: string): Promise<{ model: string; vector: number[] }> {
    let pending = this.embedding.get(content);
    if (!pending) {
      const encoder = this.options.encoder;
      const embedded = encoder
        ? encoder.embed([content]).then((vectors) => ({ model: encoder.model, vectors }))
        : this.options.embeddings.embed([content]);
      pending = embedded
        .then(({ model, vectors }) => ({ model, vector: vectors[0] }))
        .finally(() => this.embedding.delete(content));
      this.embedding.set(content, pending);
    }
    return pending;
  }

  /**
   * Memory texts' vectors in the memories' space, for work nobody waits for (after remember, re-embedding): on the
   * encoder's lowest-priority threads on the neural path, through the chain otherwise.
   */
  async embedInBackground(contents: string[]): Promise<{ model: string; vectors: number[][] }> {
    const encoder = this.options.encoder;
    if (!encoder) return this.options.embeddings.embed(contents);
    const vectors = await (encoder.embedBackground ?? encoder.embed).call(encoder, contents);
    return { model: encoder.model, vectors };
  }

  /** Loads a subject's stored memories into the in-process fulltext index once (concurrent callers share it). */
  async ensureLoaded(subject: string): Promise<void> {
    if (this.text.has(subject)) return;
    let loading = this.loading.get(subject);
    if (!loading) {
      loading = this.loads.submit(subject).finally(() => this.loading.delete(subject));
      this.loading.set(subject, loading);
    }
    await loading;
  }

  /**
   * Loads subjects into the fulltext index with one query: a sync batch remembers for hundreds of people at once,
   * most of them new, and a query each was most of the store's commands (7,866 of 9,300 in a 20,000-event run).
   */
  private async loadSubjects(subjects: string[]): Promise<undefined[]> {
    const docs = await this.memories
      .find({ subject: { $in: subjects } }, { subject: 1, tier: 1, content: 1, content_hash: 1 })
      .lean();
    const bySubject = new Map<string, IndexedMemory[]>(subjects.map((subject) => [subject, []]));
    for (const doc of docs)
      bySubject
        .get(doc.subject)
        ?.push({ id: doc._id, tier: doc.tier, content: doc.content, hash: doc.content_hash });
    for (const [subject, memories] of bySubject) this.text.load(subject, memories);
    return subjects.map(() => undefined);
  }

  /**
   * An exact repeat (same normalised-content hash) or, with `near`, the nearest of the 5 best BM25 matches whose
   * offline-embedding cosine reaches `duplicateSimilarity`, in the same subject and tier, read from the in-process
   * index (the subject is loaded from MongoDB first). The BM25 search is bounded to DUPLICATE_CANDIDATES memories,
   * the newest holding the text's rarest terms: a near copy holds those terms too.
   */
  private async findDuplicate(
    record: MemoryRecord,
    tier: StoredMemoryTier,
    hash: string,
    near: boolean,
  ): Promise<string | null> {
    await this.ensureLoaded(record.subject);
    const exact = this.text.findByHash(record.subject, tier, hash);
    if (exact || !near) return exact ?? null;
    const candidates = this.text.search(record.subject, record.content, [tier], 5, DUPLICATE_CANDIDATES);
    if (candidates.length === 0) return null;
    const vector = this.localVector(record.content);
    let best: { id: string; similarity: number } | null = null;
    for (const candidate of candidates) {
      const content = this.text.get(record.subject, candidate.id)?.content;
      if (content === undefined) continue;
      const similarity = cosine(vector, this.localVector(content));
      if (similarity >= this.options.duplicateSimilarity && (!best || similarity > best.similarity))
        best = { id: candidate.id, similarity };
    }
    return best?.id ?? null;
  }

  /** The offline embedding of a text, from the cache of recent ones when it is there. */
  private localVector(text: string): number[] {
    let vector = this.localVectors.get(text);
    if (!vector) {
      vector = this.local.embedOne(text);
      this.localVectors.set(text, vector);
    }
    return vector;
  }

  /** Adds a turn; while the session is over budget, its oldest turns move to the episodic tier. */
  private async appendWorking(record: MemoryRecord): Promise<void> {
    const { working, tokens, workingBudget } = this.options;
    let total = await working.append({ record, tokens: tokens.count(record.content) });
    while (total > workingBudget) {
      const oldest = await working.shift(record.subject, record.session_id!);
      if (!oldest) break;
      total -= oldest.tokens;
      if (oldest.record.id === record.id) continue;
      memoryOperations.inc({ operation: 'overflow', tier: 'working' });
      await this.store({ ...oldest.record, tier: 'episodic' }, 'episodic');
    }
  }
}
