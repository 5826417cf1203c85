import type { Agenda } from 'agenda';
import { tiktokenCounter } from '../../../ai/chunking/tokenCounter';
import type { MemoryVectorStats } from '../../../ai/corpus/corpusStats';
import type { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { SentenceEncoder } from '../../../ai/embeddings/sentenceEncoder';
import type { PlatformContext } from '../../../platform/platform';
import type { ServiceRegistrar } from '../../../platform/app';
import type { BrainStatusSource } from '../../../platform/areaStatus';
import type { AuthService } from '../../auth';
import { SubjectGraph } from '../graph/subjectGraph';
import { registerGraphRoutes } from '../graph/router';
import { graphService, type GraphService } from '../graph/graphService';
import { DecisionLog, type DecisionPublisher } from '../decisions/decisionLog';
import { decisionService, type DecisionService } from '../decisions/decisionService';
import { registerDecisionRoutes } from '../decisions/router';
import { decisionStatus } from '../decisions/decisionStatus';
import { Consolidation, type BackupGate } from '../consolidation/consolidation';
import { registerConsolidationRoutes } from '../consolidation/router';
import { registerSecurityRoutes } from '../security/router';
import { securityService, type SecurityService } from '../security/securityService';
import { SubjectEraser } from '../security/subjectEraser';
import { MemoryAuditLog, type AuditPort } from './memoryAuditLog';
import { MemoryKeeper } from './memoryKeeper';
import { MemoryReembedding } from './memoryReembedding';
import { memoryStatus } from './memoryStatus';
import { MemoryVectors } from './memoryVectors';
import { registerMemoryRoutes } from './router';
import { InProcessWorkingMemory, RedisWorkingMemory } from './workingMemory';

/** Options of the memory part of the brain (all optional; defaults in brackets). */
export interface BrainMemoryOptions {
  /** Consolidation waits for a running backup (issue 23) [nothing to wait for]. */
  backupGate?: BackupGate;
  /** The platform audit log (issue 21) for forget, erase and security actions [none: memory audit records only]. */
  audit?: AuditPort;
  /** Where decision changes are published to be searchable in the brain (the corpus ingestor) [nowhere]. */
  decisionPublisher?: DecisionPublisher;
  /**
   * The sentence encoder to share with the documents' chain (BRAIN_LOCAL_EMBEDDER=neural) [with
   * BRAIN_MEMORY_EMBEDDER=neural, one of the memory's own, closed with it].
   */
  encoder?: SentenceEncoder;
}

/** The memory part of the brain: its services for other areas, routes and jobs. */
export interface BrainMemory {
  memory: MemoryKeeper;
  decisions: DecisionLog;
  consolidation: Consolidation;
  audit: MemoryAuditLog;
  /** Its area of the admin status: memories, vectors, the last consolidation. */
  status: BrainStatusSource;
  /** The decision log's area of the admin status: decisions not published into the corpus. */
  decisionStatus: BrainStatusSource;
  /** The decision log and the graph as other areas call them (the MCP gateway). */
  decisionService: DecisionService;
  graphService: GraphService;
  securityService: SecurityService;
  /** The background move of memories into the encoder's space (neural path only). */
  reembedding?: MemoryReembedding;
  /**
   * `/brain/stats`' `memory_vectors` on the neural path: the re-embedding, plus the memories whose vector follows
   * remember (pending, and since when the oldest); undefined on the chain path.
   */
  vectorProgress(): Promise<MemoryVectorStats | undefined>;
  services: ServiceRegistrar[];
  jobs: ((agenda: Agenda) => Promise<void>)[];
  close(): Promise<void>;
}

/**
 * Opens the memory service (four tiers), the decision log, the subject graph, consolidation and the security
 * routes on the platform's stores. Vectors use the brain's embedding chain in `<BRAIN_QDRANT_COLLECTION>_memories`;
 * working memory lives in Redis under `<BRAIN_CACHE_KEY_PREFIX>memory:` when REDIS_URL is set.
 */
export async function openBrainMemory(
  context: PlatformContext,
  embeddings: EmbeddingChain,
  auth: Pick<AuthService, 'guard'>,
  options: BrainMemoryOptions = {},
): Promise<BrainMemory> {
  const { config, stores, clock } = context;
  if (!stores.mongo) throw new Error('Brain memory needs MongoDB');
  const logger = context.logger.child({ component: 'brain-memory' });
  const neural = config.BRAIN_MEMORY_EMBEDDER === 'neural';
  const ownEncoder = neural && !options.encoder;
  const encoder = neural
    ? (options.encoder ?? new SentenceEncoder({ threads: config.BRAIN_ENCODER_THREADS }))
    : undefined;
  const vectors = new MemoryVectors(stores.qdrant, `${config.BRAIN_QDRANT_COLLECTION}_memories`);
  await vectors.open([
    ...embeddings.spaces(),
    ...(encoder ? [{ model: encoder.model, dimensions: encoder.dimensions }] : []),
  ]);
  // The model loads now (on the encoder's thread, about 0.5 s), not on the first recall; a model that cannot load
  // stops start-up here.
  await encoder?.warmUp();
  const graph = new SubjectGraph(stores.mongo, clock);
  await graph.init();
  const retentionSeconds = config.BRAIN_EPISODIC_RETENTION_DAYS * 86_400;
  const working = stores.redis
    ? new RedisWorkingMemory(stores.redis, `${config.BRAIN_CACHE_KEY_PREFIX}memory:`, retentionSeconds)
    : new InProcessWorkingMemory();
  const memory = new MemoryKeeper({
    mongo: stores.mongo,
    vectors,
    embeddings,
    working,
    graph,
    tokens: tiktokenCounter,
    clock,
    logger,
    workingBudget: config.BRAIN_WORKING_MEMORY_MAX_TOKENS,
    duplicateSimilarity: config.BRAIN_MEMORY_DUPLICATE_SIMILARITY,
    redactSecrets: config.BRAIN_MEMORY_REDACT_SECRETS,
    encoder,
  });
  await memory.init();
  // Memories remembered before the encoder's space existed get their vectors in it, in the background.
  const reembedding = encoder ? new MemoryReembedding(memory, encoder.model, logger) : undefined;
  reembedding?.start();
  const audit = new MemoryAuditLog(stores.mongo, clock, logger, options.audit);
  await audit.init();
  const decisions = new DecisionLog(stores.mongo, clock, logger, options.decisionPublisher);
  await decisions.init();
  const consolidation = new Consolidation({
    mongo: stores.mongo,
    memory,
    decisions,
    graph,
    clock,
    logger,
    config,
    backupGate: options.backupGate,
  });
  await consolidation.init();
  const eraser = new SubjectEraser(memory, graph, working, vectors);
  const guard = auth.guard;
  return {
    memory,
    decisions,
    consolidation,
    audit,
    status: memoryStatus(memory, consolidation),
    decisionStatus: decisionStatus(decisions.publication),
    decisionService: decisionService(decisions),
    graphService: graphService(graph, clock),
    securityService: securityService({ memory, audit, eraser, mongo: stores.mongo! }),
    services: [
      (routes) => registerMemoryRoutes(routes, { memory, audit, requireBrainAuth: guard.requireBrainAuth }),
      (routes) => registerGraphRoutes(routes, { graph, clock, requireBrainAuth: guard.requireBrainAuth }),
      (routes) => registerDecisionRoutes(routes, { decisions, guard }),
      (routes) => registerConsolidationRoutes(routes, { consolidation, guard }),
      (routes) => registerSecurityRoutes(routes, { memory, audit, eraser, guard, mongo: stores.mongo! }),
    ],
    jobs: [
      (agenda) => consolidation.registerJob(agenda),
      (agenda) => decisions.publication.registerJob(agenda, config.ROLES.includes('worker')),
      (agenda) => memory.vectorRepair.registerJob(agenda),
    ],
    reembedding,
    vectorProgress: async () => {
      if (!reembedding) return undefined;
      const progress = reembedding.progress();
      const waiting = await memory.vectorRepair.pending();
      return {
        ...progress,
        pending: progress.pending + waiting.count,
        oldest_pending_at: waiting.oldest?.toISOString() ?? null,
      };
    },
    close: async () => {
      await reembedding?.stop();
      await memory.vectorRepair.stop();
      await consolidation.stop();
      await audit.flush();
      if (ownEncoder) await encoder?.close();
    },
  };
}
