import { SentenceEncoder } from '../../ai/embeddings/sentenceEncoder';
import type { Sleep } from '../../ai/embeddings/retry';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { BrainStatusSource } from '../admin';
import type { AuthService } from '../auth';
import { openBrainCore, type BrainCore } from './brainCore';
import { IngestQueue } from './ingestQueue';
import {
  presentAsk,
  presentCacheStats,
  presentIngest,
  presentSearch,
  presentSearchV2,
  presentStats,
} from './presenters';
import { registerBrainRoutes } from './router';
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
} from './schemas';
import { PROJECT_ROOT } from '../../platform/projectRoot';
import { seedEmptyBrain } from './seed';
import { openBrainMemory, type BrainMemoryOptions } from './memory/memoryArea';
import { decisionPublisherFor } from './decisions/decisionPublisher';
import type { MemoryService } from './memory/memoryService';
import type { DecisionService } from './decisions/decisionService';
import type { GraphService } from './graph/graphService';

export type { MemoryService } from './memory/memoryService';
export type { DecisionService } from './decisions/decisionService';
export type { GraphService } from './graph/graphService';

/** Test seams of the brain area. `sleep`: the embedding retry's backoff waits (default: real timers). */
export interface BrainAreaOptions extends BrainMemoryOptions {
  sleep?: Sleep;
}

/**
 * The brain's operations as other areas (the MCP gateway) call them: the same commands and presenters as the
 * /brain routes, so both interfaces answer the same shapes.
 */
export interface BrainService {
  search(request: SearchRequestBody): Promise<ReturnType<typeof presentSearch>>;
  /** POST /brain/search/v2: routed search. */
  searchV2(request: SearchV2RequestBody): Promise<ReturnType<typeof presentSearchV2>>;
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
  /** The memory service's area of the admin status (`memory/memoryStatus.ts`). */
  memoryStatus?: BrainStatusSource;
}

/** The service interface over an opened core; ingests wait their turn in `queue` (shared with the route). */
export function brainService(core: BrainCore, queue: IngestQueue): BrainService {
  return {
    search: async (request) => presentSearch(request.query, await core.search.search(request)),
    searchV2: async (request) =>
      presentSearchV2(
        request.query,
        await core.routedSearch.search({ ...request, sourcePrefix: request.filters?.source_prefix }),
      ),
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
    ingest: async (documents, ingestedBy) =>
      presentIngest(await queue.run(() => core.ingestor.ingest(documents, 'documents', ingestedBy))),
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
    decisionPublisher: decisionPublisherFor(core.ingestor, context.logger),
    // One set of encoder threads when documents use the sentence encoder too.
    encoder: core.localEmbedder instanceof SentenceEncoder ? core.localEmbedder : undefined,
    ...options,
  });
  // /brain/stats shows the memories' re-embedding beside the corpus figures.
  const statsCore: BrainCore = {
    ...core,
    stats: async () => ({ ...(await core.stats()), memoryVectors: memory.reembedding?.progress() }),
  };
  return {
    service: brainService(statsCore, queue),
    memory: memory.memory,
    decisions: memory.decisionService,
    graph: memory.graphService,
    memoryStatus: memory.status,
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
          redactSecrets: context.config.BRAIN_MEMORY_REDACT_SECRETS,
        }),
      ...memory.services,
    ],
  };
}
