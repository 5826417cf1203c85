import type { Ingestor } from '../../ai/corpus/ingestor';
import type { Sleep } from '../../ai/embeddings/retry';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { BrainStatusSource } from '../../platform/areaStatus';
import type { AuthService } from '../auth';
import { openBrainCore, type BrainCore } from './brainCore';
import { IngestQueue } from './ingestQueue';
import { ingestAdmitted, screenIngestDocuments } from './security/ingestSecretGuard';
import {
  presentAsk,
  presentCacheStats,
  presentIngest,
  presentRoute,
  presentSearch,
  presentSearchV2,
  presentStats,
} from './presenters';
import { registerBrainRoutes } from './router';
import { registerDocumentRoutes } from './documentRoutes';
import { exposeEnrichment } from './enrichmentMetrics';
import type { AskRequestBody, IngestRequest, SearchRequestBody, SearchV2RequestBody } from './schemas';

export {
  AskRequestSchema,
  AskResponseSchema,
  SearchV2RequestSchema,
  SearchV2ResponseSchema,
  BrainStatsSchema,
  CacheStatsSchema,
  IngestRequestSchema,
  IngestResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  RouteSchema,
} from './schemas';
// What the MCP tools publish as their schemas: the routes' own, so a tool and its route cannot drift.
export { CommunityListSchema, NeighboursSchema } from './graph/corpusGraphSchemas';
export { SubjectSchema } from './memory/schemas';
export { AuditListSchema, AuditQuerySchema, ExportSchema, ScanResponseSchema } from './security/schemas';
import { PROJECT_ROOT } from '../../platform/projectRoot';
import { seedEmptyBrain } from './seed';
import { openBrainMemory, type BrainMemoryOptions } from './memory/memoryArea';
import { decisionPublisherFor } from './decisions/decisionPublisher';
import type { MemoryService } from './memory/memoryService';
import type { DecisionService } from './decisions/decisionService';
import type { GraphService } from './graph/graphService';
import { corpusGraphReads, type CorpusGraphReads } from './graph/corpusGraphReads';
import type { SecurityService } from './security/securityService';

export type { MemoryService } from './memory/memoryService';
export type { DecisionService } from './decisions/decisionService';
export type { GraphService } from './graph/graphService';
export type { CorpusGraphReads } from './graph/corpusGraphReads';
export type { SecurityService } from './security/securityService';
export type { MemoryRecord, RecallHit, RememberInput } from './memory/memoryService';
export {
  CreateDecisionSchema,
  DecisionCategorySchema,
  DecisionListSchema,
  DecisionStatusSchema,
  DecisionWithVersionsSchema,
} from './decisions/schemas';
export { EntityDetailSchema, EntityListSchema } from './graph/schemas';
export { userSubject } from './memory/subjectAccess';
export { memoryError } from './memory/errors';
export { presentMemory, presentRecall } from './memory/presenters';
export {
  ForgetResponseSchema,
  MemoryListSchema,
  MemoryRecordSchema,
  MemoryTierSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  RememberRequestSchema,
  RememberResponseSchema,
  WorkingMemorySchema,
} from './memory/schemas';

/**
 * Test seams of the brain area. `sleep`: the embedding retry's backoff waits (default: real timers).
 * `decisionCorpus`: wraps the ingestor decisions are published through (a test makes the brain unavailable).
 */
export interface BrainAreaOptions extends BrainMemoryOptions {
  sleep?: Sleep;
  decisionCorpus?: (ingestor: Pick<Ingestor, 'ingest'>) => Pick<Ingestor, 'ingest'>;
}

/**
 * The brain's operations as other areas (the MCP gateway) call them: the same commands and presenters as the
 * /brain routes, so both interfaces answer the same shapes.
 */
export interface BrainService {
  search(request: SearchRequestBody): Promise<ReturnType<typeof presentSearch>>;
  /** POST /brain/search/v2: routed search. */
  searchV2(request: SearchV2RequestBody): Promise<ReturnType<typeof presentSearchV2>>;
  /** The route `strategy` (default auto) would take for `query`: class, strategies, reason; nothing is searched. */
  routeQuery(query: string, strategy?: SearchV2RequestBody['strategy']): ReturnType<typeof presentRoute>;
  /** POST /brain/ask: an answer with citations, or an abstention. */
  ask(request: AskRequestBody): Promise<ReturnType<typeof presentAsk>>;
  stats(): Promise<ReturnType<typeof presentStats>>;
  cacheStats(): ReturnType<typeof presentCacheStats>;
  /** Ingests as `ingestedBy` (`user:<id>` or `service`; the caller checks who may write). */
  ingest(
    documents: IngestRequest['documents'],
    ingestedBy: string,
  ): Promise<ReturnType<typeof presentIngest>>;
  /** Circuit-breaker state of each embedding provider (a health probe; no store round trip). */
  providerStates(): Array<{ provider: string; state: string }>;
}

/** The brain's parts, plus its service interface when this process serves the brain (api role). */
export interface BrainArea extends ProductParts {
  service?: BrainService;
  /** Subjects' memories in four tiers (NPCs, companions, the social graph call it); see memory/README.md. */
  memory?: MemoryService;
  /** The decision log (SPEC 2.9, 3.3) as other areas call it. */
  decisions?: DecisionService;
  /** The knowledge graph's entity reads as other areas call them. */
  graph?: GraphService;
  /** The documents' co-occurrence graph: neighbours and communities. */
  corpusGraph?: CorpusGraphReads;
  /** The /brain/security reads (memory audit, secret scan, subject export) as other areas call them. */
  security?: SecurityService;
  /** The memory service's area of the admin status (`memory/memoryStatus.ts`). */
  memoryStatus?: BrainStatusSource;
  /** The decision log's area of the admin status: publication into the corpus (`decisions/decisionStatus.ts`). */
  decisionStatus?: BrainStatusSource;
}

/** The service interface over an opened core; ingests wait their turn in `queue` (shared with the route). */
export function brainService(core: BrainCore, queue: IngestQueue, redactSecrets = false): BrainService {
  return {
    search: async (request) => presentSearch(request.query, await core.search.search(request)),
    searchV2: async (request) =>
      presentSearchV2(
        request.query,
        await core.routedSearch.search({ ...request, sourcePrefix: request.filters?.source_prefix }),
      ),
    routeQuery: (query, strategy) => presentRoute(core.routedSearch.plan(query, strategy)),
    ask: async (request) =>
      presentAsk(
        await core.answerer.ask({
          question: request.question,
          indexes: request.indexes,
          strategy: request.strategy,
          maxContextTokens: request.max_context_tokens,
        }),
      ),
    stats: async () => presentStats(await core.stats()),
    cacheStats: () => presentCacheStats(core.cache.stats()),
    // The same secret screen as POST /brain/ingest: a document holding a secret is refused on its own.
    ingest: async (documents, ingestedBy) => {
      const { admitted, refused } = screenIngestDocuments(documents, redactSecrets, 'documents');
      const results = await queue.run(() => ingestAdmitted(core.ingestor, admitted, ingestedBy, 'documents'));
      return presentIngest(results, refused);
    },
    providerStates: () => core.embeddings.breakerStates().map(({ provider, state }) => ({ provider, state })),
  };
}

/**
 * The knowledge service's retrieval area: in a process with the `api` role, opens the core on the
 * platform's stores (rebuilding the BM25 index from MongoDB) and contributes the /brain routes, ingestion
 * by the service token or operators (`requireServiceOrRole`). Game- or worker-only processes serve no brain routes and skip it.
 */
export async function createBrainArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: BrainAreaOptions = {},
): Promise<BrainArea> {
  if (!hasRole(context.config, 'api')) return {};
  const core = await openBrainCore({ ...context, sleep: options.sleep });
  exposeEnrichment(async () => (await core.stats()).enrichment);
  // In the background, so start-up does not wait for it; stopping waits for it to finish.
  const seeding = context.config.BRAIN_SEED_ON_START
    ? seedEmptyBrain(core, PROJECT_ROOT, context.logger).catch((error: unknown) => {
        context.logger.error({ err: error }, 'brain seed failed');
      })
    : undefined;
  const queue = new IngestQueue({
    concurrency: context.config.BRAIN_INGEST_CONCURRENCY,
    maxWaiting: context.config.BRAIN_INGEST_QUEUE,
  });
  const memory = await openBrainMemory(context, core.embeddings, auth, {
    decisionPublisher: decisionPublisherFor(options.decisionCorpus?.(core.ingestor) ?? core.ingestor),
    // One set of encoder threads for documents, answers and memory.
    encoder: core.encoder,
    ...options,
  });
  // /brain/stats shows the memories' re-embedding beside the corpus figures.
  const statsCore: BrainCore = {
    ...core,
    stats: async () => ({ ...(await core.stats()), memoryVectors: await memory.vectorProgress() }),
  };
  return {
    service: brainService(statsCore, queue, context.config.BRAIN_MEMORY_REDACT_SECRETS),
    memory: memory.memory,
    decisions: memory.decisionService,
    graph: memory.graphService,
    corpusGraph: corpusGraphReads(core.graph),
    security: memory.securityService,
    memoryStatus: memory.status,
    decisionStatus: memory.decisionStatus,
    jobs: memory.jobs,
    close: async () => {
      await seeding;
      await memory.close();
      await core.close();
    },
    services: [
      (routes) =>
        registerBrainRoutes(routes, {
          core: statsCore,
          requireIngestAccess: auth.guard.requireServiceOrRole('operator'),
          requireBrainAuth: auth.guard.requireBrainAuth,
          queue,
          maxDocumentsPerIngest: context.config.BRAIN_INGEST_MAX_DOCUMENTS,
          maxDocumentBytes: context.config.BRAIN_MAX_DOCUMENT_BYTES,
          redactSecrets: context.config.BRAIN_MEMORY_REDACT_SECRETS,
        }),
      (routes) => registerDocumentRoutes(routes, core),
      ...memory.services,
    ],
  };
}
