import type { Request, RequestHandler } from 'express';
import { AppError, retryAfter } from '../../platform/errors';
import type { ApiRoutes } from '../../platform/http/routes';
import { actorOf } from '../../access/authGuard';
import type { Principal } from '../../access/principal';
import type { BrainCore } from './brainCore';
import { brainError } from './errors';
import { partialIndexReasons, withPartialIndexes } from './partialIndexes';
import { ingestAdmitted, screenIngestDocuments } from './security/ingestSecretGuard';
import type { IngestQueue } from './ingestQueue';
import {
  presentAsk,
  presentCacheStats,
  presentIngest,
  presentSearch,
  presentSearchV2,
  presentStats,
} from './presenters';
import {
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

/** A document over BRAIN_MAX_DOCUMENT_BYTES (nothing written): 413 with the limit, as problem JSON. */
function tooLargeAs413(error: unknown, limitBytes: number | undefined): unknown {
  if (!(error instanceof AppError) || error.code !== 'BRAIN_DOCUMENT_TOO_LARGE') return error;
  return new AppError(413, error.code, 'Payload Too Large', {
    detail: error.detail,
    errors: error.errors,
    extensions: limitBytes === undefined ? undefined : { limit_bytes: limitBytes },
  });
}

/**
 * A store that failed under an ingest (MongoDB gone, a full disk): 503 BRAIN_STORE_UNAVAILABLE with Retry-After, the
 * cause kept for the log only. Nothing acknowledged is lost (a document is committed by its own write after its
 * chunks; chunks of one not committed are never searched and are replaced by the retry), so the same request can
 * simply be sent again.
 */
function storeFailureAs503(error: unknown): unknown {
  if (!isStoreFailure(error)) return error;
  return brainError(
    'BRAIN_STORE_UNAVAILABLE',
    'The document store failed during the ingest; retry the request',
    {
      ...retryAfter(5),
      cause: error,
    },
  );
}

/** A MongoDB driver or server error, or a system error (`ENOSPC`, `EIO`, `ECONNRESET`); not a fault of ours. */
function isStoreFailure(error: unknown): boolean {
  if (error instanceof AppError || !(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name.startsWith('Mongo') || (typeof code === 'string' && /^E[A-Z]+$/.test(code));
}

/** The ingest guard has admitted a principal: record it as the author. */
const ingesterOf = (req: Request) => actorOf(req.principal as Principal);

/** What the brain routes need: the retrieval core, the auth guard for ingestion and the batch limit. */
export interface BrainRouteDependencies {
  core: Pick<
    BrainCore,
    'ingestor' | 'search' | 'routedSearch' | 'answerer' | 'cache' | 'stats' | 'backfill' | 'graph' | 'raptor'
  >;
  /** Writes to the shared indexes: the service token or an operator/admin (403 ROLE_REQUIRED otherwise). */
  requireIngestAccess: RequestHandler[];
  /** Bounds concurrent ingests (503 BRAIN_INGEST_BUSY with Retry-After when full). */
  queue: Pick<IngestQueue, 'run'>;
  /** SPEC 5 `require_brain_auth`: a signed-in user or the service token (ask). */
  requireBrainAuth: RequestHandler[];
  maxDocumentsPerIngest: number;
  /** BRAIN_MAX_DOCUMENT_BYTES: a document over it answers 413 naming the limit. */
  maxDocumentBytes?: number;
  /** BRAIN_MEMORY_REDACT_SECRETS: redact private keys and mnemonics in ingested documents instead of refusing. */
  redactSecrets: boolean;
}

/** The knowledge service's retrieval routes (SPEC.md 4.2): ingest (protected), search and statistics (public). */
export function registerBrainRoutes(routes: ApiRoutes, deps: BrainRouteDependencies): void {
  const { core } = deps;

  routes.add({
    method: 'post',
    path: '/brain/ingest',
    summary: 'Ingest documents into the docs, code or tests index',
    description:
      'Each document is chunked (markdown headings, code symbols), deduplicated by content hash, stored and ' +
      'indexed for fulltext search before the answer (searchable first); its vectors, graph entities and RAPTOR ' +
      'summaries follow in background work recorded in the store (each result lists `indexed` and `pending`; ' +
      'see GET /brain/documents/{id} and the `enrichment` block of /brain/stats). Re-ingesting a source replaces ' +
      'its chunks and leaves unchanged ones as they are. Every document is validated before anything is ' +
      'written: one malformed document (empty, binary, a repeated source) rejects the request with 400, one over ' +
      'BRAIN_MAX_DOCUMENT_BYTES with 413 and `limit_bytes`, and nothing changes. Each document is also ' +
      'screened for secrets (private keys with key context, checksum-valid seed phrases, provider tokens; never ' +
      'hashes): one that holds a secret is refused on its own, listed in `refused` with the kind, rule and line ' +
      'of each finding (never the value), and the others are stored — 207 when some were refused, 200 when none ' +
      'was, 400 BRAIN_SECRET_DETECTED when all were. Invalidates the search cache. Needs the service token or ' +
      'the operator role (403 ROLE_REQUIRED); each stored version records who ingested it and when.',
    tags: ['brain'],
    security: 'bearer',
    middleware: deps.requireIngestAccess,
    request: { body: IngestRequestSchema },
    responses: {
      200: {
        description: 'Every document stored: per-document outcome and totals',
        schema: IngestResponseSchema,
      },
      207: {
        description: 'Some documents stored, the others refused for holding a secret (listed in `refused`)',
        schema: IngestResponseSchema,
      },
      400: {
        description:
          'A malformed document (nothing written), or BRAIN_SECRET_DETECTED: every document holds a secret',
      },
      403: { description: 'ROLE_REQUIRED: neither the service token nor an operator or admin' },
      413: { description: 'BRAIN_DOCUMENT_TOO_LARGE (nothing written; `limit_bytes` says the limit)' },
      503: {
        description:
          'BRAIN_INGEST_BUSY (too many ingests running and waiting), or BRAIN_STORE_UNAVAILABLE (the document ' +
          'store failed mid-write: a full disk, MongoDB gone; what was acknowledged before stays, and the same ' +
          'request can be sent again); retry after Retry-After seconds',
      },
    },
    handler: async ({ req, body }) => {
      if (body.documents.length > deps.maxDocumentsPerIngest) {
        throw brainError(
          'BRAIN_TOO_MANY_DOCUMENTS',
          `At most ${deps.maxDocumentsPerIngest} documents per request`,
          {
            errors: [{ path: 'body.documents', message: `has ${body.documents.length} documents` }],
          },
        );
      }
      // A secret never reaches the shared indexes: its document is refused (or redacted), the others go in.
      const { admitted, refused } = screenIngestDocuments(body.documents, deps.redactSecrets);
      const ingestedBy = ingesterOf(req);
      const results = await deps.queue
        .run(() => ingestAdmitted(core.ingestor, admitted, ingestedBy))
        .catch((error: unknown) => {
          throw storeFailureAs503(tooLargeAs413(error, deps.maxDocumentBytes));
        });
      return { status: refused.length > 0 ? 207 : 200, body: presentIngest(results, refused) };
    },
  });

  routes.add({
    method: 'post',
    path: '/brain/search',
    summary: 'Search the knowledge base (fulltext, semantic or hybrid)',
    description:
      'Results are cached in two levels (in process, then Redis) by normalised query and parameters until ' +
      'the next ingest.',
    tags: ['brain'],
    request: { body: SearchRequestSchema },
    responses: {
      200: { description: 'The best hits first', schema: SearchResponseSchema },
      503: { description: 'Semantic search without a working embedding provider for the corpus' },
    },
    handler: async ({ body }) => {
      const response = await core.search.search({
        query: body.query,
        strategy: body.strategy,
        indexes: body.indexes,
        limit: body.limit,
      });
      const partial = partialIndexReasons(core, [response.strategy]);
      return { status: 200, body: withPartialIndexes(presentSearch(body.query, response), partial) };
    },
  });

  routes.add({
    method: 'post',
    path: '/brain/search/v2',
    summary: 'Advanced search: adaptive routing over five strategies, fusion and reranking',
    description:
      'With strategy auto the query is classified SIMPLE, FACTUAL, EXPLORATORY or COMPLEX and routed (the route ' +
      'taken is returned); a named strategy runs alone. Candidates are reranked offline unless rerank is false. ' +
      'Cached in two levels like /brain/search until the next ingest. A strategy that fails marks the answer ' +
      'degraded and the rest still answers.',
    tags: ['brain'],
    request: { body: SearchV2RequestSchema },
    responses: {
      200: { description: 'The route taken and the best hits first', schema: SearchV2ResponseSchema },
      503: { description: 'A named semantic search without a working embedding provider' },
    },
    handler: async ({ body }) => {
      const response = await core.routedSearch.search({
        query: body.query,
        strategy: body.strategy,
        indexes: body.indexes,
        limit: body.limit,
        rerank: body.rerank,
        sourcePrefix: body.filters?.source_prefix,
      });
      const partial = partialIndexReasons(core, response.route.strategies);
      return { status: 200, body: withPartialIndexes(presentSearchV2(body.query, response), partial) };
    },
  });

  routes.add({
    method: 'post',
    path: '/brain/ask',
    summary: 'Answer a question from the indexed documents, with citations',
    description:
      'Retrieval-augmented question answering: the question is routed like a v2 search, the best passages ' +
      'within max_context_tokens form the context, and the answer is written by the configured LLM or, ' +
      'offline, extracted (the best sentences, each followed by its [n]). Every [n] names a citation. Below ' +
      'the evidence threshold the service abstains ("The indexed documents do not say.", grounded false).',
    tags: ['brain'],
    security: 'bearer',
    middleware: deps.requireBrainAuth,
    request: { body: AskRequestSchema },
    responses: {
      200: { description: 'The answer and its citations', schema: AskResponseSchema },
      503: { description: 'A named semantic search without a working embedding provider' },
    },
    handler: async ({ body }) => {
      const result = await core.answerer.ask({
        question: body.question,
        indexes: body.indexes,
        strategy: body.strategy,
        maxContextTokens: body.max_context_tokens,
      });
      return { status: 200, body: presentAsk(result) };
    },
  });

  routes.add({
    method: 'get',
    path: '/brain/stats',
    summary: 'Corpus, vector, query and embedding-provider statistics',
    tags: ['brain'],
    responses: { 200: { description: 'Statistics', schema: BrainStatsSchema } },
    handler: async () => ({ status: 200, body: presentStats(await core.stats()) }),
  });

  routes.add({
    method: 'get',
    path: '/brain/cache/stats',
    summary: 'Search cache hits, misses and hit rate per level (L1 in process, L2 Redis)',
    tags: ['brain'],
    responses: { 200: { description: 'Cache statistics of this process', schema: CacheStatsSchema } },
    handler: () => ({ status: 200, body: presentCacheStats(core.cache.stats()) }),
  });
}
