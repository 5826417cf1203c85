import { z } from 'zod';
import { INDEX_NAMES } from '../../models/corpusRecords';
import { STRATEGY_NAMES } from '../../ai/retrieval/hit';
import { SERVED_STRATEGIES } from '../../ai/retrieval/searchService';
import { V2_STRATEGIES } from '../../ai/router/adaptiveRouter';
import { QUERY_CLASSES } from '../../ai/router/queryClassifier';
import { EnrichmentStatsSchema, enrichmentFields, partialReasons } from './enrichmentSchemas';

/** Hard ceiling of documents per ingest request; BRAIN_INGEST_MAX_DOCUMENTS sets the configured limit below it. */
const MAX_DOCUMENTS_CEILING = 10_000;
const timestamp = z.iso.datetime();
const perIndex = z.object({ docs: z.number().int(), code: z.number().int(), tests: z.number().int() });

export const BrainIndexSchema = z.enum(INDEX_NAMES).meta({ id: 'BrainIndex', description: 'A brain index' });

export const IngestDocumentSchema = z
  .object({
    source: z.string().meta({
      description:
        'Repository path (forward slashes) or URL. Identifies the document within its index: ingesting the ' +
        'same index and source again replaces its chunks. At most 2048 characters.',
      examples: ['docs/DESIGN.md'],
    }),
    index: BrainIndexSchema,
    text: z.string().meta({
      description:
        'Full UTF-8 text. Not blank, at most BRAIN_MAX_DOCUMENT_BYTES bytes, not binary (no NUL, at most 2% ' +
        'control characters). Markdown is chunked at headings, TypeScript/JavaScript at top-level symbols.',
    }),
    title: z.string().trim().min(1).max(300).optional().meta({
      description: 'Display title; default: the first markdown H1, else the file name',
    }),
    tags: z.array(z.string().trim().min(1).max(64)).max(32).optional(),
  })
  .meta({ id: 'BrainIngestDocument' });

export const IngestRequestSchema = z
  .object({ documents: z.array(IngestDocumentSchema).min(1).max(MAX_DOCUMENTS_CEILING) })
  .meta({ id: 'BrainIngestRequest', description: 'At most BRAIN_INGEST_MAX_DOCUMENTS (100) documents' });
export type IngestRequest = z.infer<typeof IngestRequestSchema>;

export const IngestResultSchema = z
  .object({
    document_id: z.string(),
    index: BrainIndexSchema,
    source: z.string(),
    title: z.string(),
    status: z.enum(['created', 'updated', 'unchanged']),
    chunks: z.number().int().meta({ description: 'Chunks of the current version (after deduplication)' }),
    embedded: z
      .number()
      .int()
      .meta({ description: 'Chunks embedded by this request (unchanged ones are kept)' }),
    removed: z.number().int().meta({ description: 'Chunks of the previous version that were deleted' }),
    embedding_model: z.string().nullable().meta({ description: 'The vector space holding the chunks' }),
    ...enrichmentFields,
  })
  .meta({ id: 'BrainIngestResult' });

export const IngestRefusalSchema = z
  .object({
    position: z.number().int().meta({ description: 'Index of the document in the request' }),
    source: z.string(),
    code: z.literal('BRAIN_SECRET_DETECTED'),
    findings: z
      .array(
        z.object({
          kind: z.enum(['private_key', 'mnemonic', 'api_token']),
          rule: z.string().meta({
            description:
              'What matched: pem_private_key, assigned_hex_key, keystore_json, bip39_mnemonic, or a provider token rule',
            examples: ['aws_access_key_id'],
          }),
          line: z.number().int().meta({ description: '1-based line of the document' }),
        }),
      )
      .meta({ description: 'Where the secrets are, never their values' }),
  })
  .meta({ id: 'BrainIngestRefusal' });

export const IngestResponseSchema = z
  .object({
    documents: z.array(IngestResultSchema).meta({ description: 'The documents stored, in request order' }),
    refused: z.array(IngestRefusalSchema).meta({
      description:
        'Documents kept out because they hold a secret (empty when all were stored; then the status is 200)',
    }),
    totals: z.object({
      created: z.number().int(),
      updated: z.number().int(),
      unchanged: z.number().int(),
      chunks: z.number().int(),
      embedded: z.number().int(),
      removed: z.number().int(),
    }),
  })
  .meta({ id: 'BrainIngestResponse' });

export const SearchRequestSchema = z
  .object({
    query: z.string().trim().min(1).max(1000),
    strategy: z.enum(SERVED_STRATEGIES).default('hybrid').meta({
      description:
        'fulltext (BM25), semantic (embeddings) or hybrid (both, fused with reciprocal-rank fusion)',
    }),
    indexes: z.array(BrainIndexSchema).min(1).max(3).optional().meta({
      description: 'Only these indexes; default: all',
    }),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .meta({ id: 'BrainSearchRequest' });
export type SearchRequestBody = z.infer<typeof SearchRequestSchema>;

const ingester = z.string().meta({
  description:
    '`user:<id>` (an operator or admin), `service` (BRAIN_SERVICE_TOKEN), `seed` (first start), `cli` ' +
    '(npm run brain:ingest) or `system`',
});

/** Who ingested a hit's document version, and when (null for versions stored before this was recorded). */
export const IngestProvenanceSchema = z
  .object({ ingested_by: ingester.nullable(), ingested_at: timestamp.nullable() })
  .meta({ id: 'BrainIngestProvenance' });

export const SearchHitSchema = z
  .object({
    id: z.string().meta({ description: 'Chunk id' }),
    document_id: z.string(),
    index: BrainIndexSchema,
    source: z.string(),
    title: z.string().meta({ description: 'Document title, then the heading path or the symbols' }),
    snippet: z.string().meta({
      description: 'HTML-escaped excerpt (up to 240 characters) with matched words wrapped in <mark>…</mark>',
    }),
    score: z.number().meta({ description: 'BM25 (fulltext), cosine (semantic) or RRF (hybrid)' }),
    strategy: z.enum(STRATEGY_NAMES).meta({ description: 'The strategy that produced the result list' }),
    found_by: z.array(z.enum(STRATEGY_NAMES)).meta({ description: 'Strategies whose lists held the chunk' }),
    start_line: z.number().int(),
    end_line: z.number().int(),
    metadata: IngestProvenanceSchema,
  })
  .meta({ id: 'BrainSearchHit' });

export const SearchResponseSchema = z
  .object({
    query: z.string(),
    strategy: z.enum(SERVED_STRATEGIES),
    cached: z.boolean().meta({ description: 'Served from the L1 or L2 cache' }),
    degraded: z.boolean().meta({
      description:
        'Part of the search failed (e.g. no embedding provider for the semantic side of hybrid) and the hits ' +
        'come from the rest; such answers are not cached. Also true when a strategy answered from an index still ' +
        'catching up with recent ingests (see degraded_reasons)',
    }),
    degraded_reasons: partialReasons,
    took_ms: z.number(),
    hits: z.array(SearchHitSchema),
  })
  .meta({ id: 'BrainSearchResponse' });

export const SearchV2RequestSchema = z
  .object({
    query: z.string().trim().min(1).max(1000),
    strategy: z
      .enum(V2_STRATEGIES)
      .default('auto')
      .meta({
        description:
          'auto (the router classifies the query: SIMPLE → fulltext, FACTUAL → semantic plus reranking, ' +
          'EXPLORATORY → graph plus community search, COMPLEX → all five fused by reciprocal-rank fusion), or ' +
          'one strategy by name',
      }),
    indexes: z
      .array(BrainIndexSchema)
      .min(1)
      .max(3)
      .optional()
      .meta({ description: 'Only these indexes; default: all' }),
    limit: z.number().int().min(1).max(50).default(10),
    rerank: z.boolean().default(true).meta({
      description: 'Rerank the candidates offline (term coverage and proximity, title match, MMR diversity)',
    }),
    filters: z
      .object({
        source_prefix: z.string().min(1).max(2048).optional().meta({
          description: 'Only chunks whose source starts with this (a folder such as `docs/`)',
        }),
      })
      .optional(),
  })
  .meta({ id: 'BrainSearchV2Request' });
export type SearchV2RequestBody = z.infer<typeof SearchV2RequestSchema>;

export const RouteSchema = z
  .object({
    class: z
      .enum(QUERY_CLASSES)
      .nullable()
      .meta({ description: 'Router class; null when the request named a strategy' }),
    strategies: z.array(z.enum(STRATEGY_NAMES)).meta({ description: 'The strategies that ran' }),
    reason: z.string().meta({ description: 'Why the router chose this route' }),
    reranked: z.boolean(),
  })
  .meta({ id: 'BrainRoute' });

export const SearchV2HitSchema = SearchHitSchema.extend({
  level: z
    .number()
    .int()
    .optional()
    .meta({ description: 'RAPTOR: tree level of the matching node (0 = chunk)' }),
  entities: z.array(z.string()).optional().meta({ description: 'GRAPH: the entities that led to the chunk' }),
}).meta({ id: 'BrainSearchV2Hit' });

export const SearchV2ResponseSchema = z
  .object({
    query: z.string(),
    route: RouteSchema,
    hits: z.array(SearchV2HitSchema),
    cached: z.boolean(),
    degraded: z.boolean().meta({
      description:
        'A strategy failed and the hits come from the rest (not cached), or answered from an index still catching up',
    }),
    degraded_reasons: partialReasons,
    took_ms: z.number(),
  })
  .meta({ id: 'BrainSearchV2Response' });

export const AskRequestSchema = z
  .object({
    question: z.string().trim().min(1).max(2000),
    indexes: z.array(BrainIndexSchema).min(1).max(3).optional(),
    strategy: z.enum(V2_STRATEGIES).default('auto'),
    max_context_tokens: z.number().int().min(100).max(16_000).default(2000).meta({
      description: 'Token budget (cl100k_base) of the passages the answer is built from',
    }),
  })
  .meta({ id: 'BrainAskRequest' });
export type AskRequestBody = z.infer<typeof AskRequestSchema>;

export const CitationSchema = z
  .object({
    n: z.number().int().min(1).meta({ description: 'The number the answer cites as [n]' }),
    chunk_id: z.string(),
    source: z.string(),
    title: z.string(),
    start_line: z.number().int(),
    end_line: z.number().int(),
    quote: z.string().meta({ description: 'The sentence of the chunk the answer rests on' }),
  })
  .meta({ id: 'BrainCitation' });

export const AskResponseSchema = z
  .object({
    answer: z.string().meta({
      description: 'Every [n] names a citation; "The indexed documents do not say." when abstaining',
    }),
    citations: z.array(CitationSchema),
    route: RouteSchema,
    model: z
      .string()
      .meta({ description: 'The LLM, extractive-textrank-v1 offline, or none when abstaining early' }),
    grounded: z.boolean().meta({ description: 'False when the service abstained' }),
    degraded: z.boolean(),
  })
  .meta({ id: 'BrainAskResponse' });

const providerState = z.object({
  provider: z.string(),
  model: z.string(),
  state: z.enum(['CLOSED', 'HALF_OPEN', 'OPEN']).meta({ description: 'Circuit-breaker state' }),
});

export const BrainStatsSchema = z
  .object({
    documents: perIndex,
    chunks: perIndex,
    total_documents: z.number().int(),
    total_chunks: z.number().int(),
    vectors: z.array(z.object({ model: z.string(), dimensions: z.number().int(), count: z.number().int() })),
    last_ingest_at: timestamp.nullable(),
    last_ingest_by: ingester.nullable().meta({ description: 'Who ingested the latest version' }),
    documents_by_ingester: z
      .array(z.object({ ingested_by: z.string(), documents: z.number().int() }))
      .meta({ description: 'Stored documents per ingester, most first (`unrecorded`: before provenance)' }),
    queries: z
      .object({ fulltext: z.number().int(), semantic: z.number().int(), hybrid: z.number().int() })
      .meta({ description: 'Searches this process has served since it started, by strategy' }),
    embedding_providers: z.array(providerState),
    generation_providers: z.array(providerState).meta({ description: 'LLMs, then the extractive generator' }),
    routes: z
      .object({
        SIMPLE: z.number().int(),
        FACTUAL: z.number().int(),
        EXPLORATORY: z.number().int(),
        COMPLEX: z.number().int(),
        named: z.number().int(),
      })
      .meta({
        description: 'v2 searches this process routed, by class (named: the request chose the strategy)',
      }),
    graph: z
      .object({
        state: z.enum(['empty', 'building', 'ready']),
        entities: z.number().int(),
        relations: z.number().int(),
        communities_per_level: z.array(z.number().int()).meta({ description: 'Index 0 is the top level' }),
        pending_documents: z.number().int(),
      })
      .meta({ description: 'The documents knowledge graph of this process (GRAPH strategy)' }),
    raptor: z
      .object({
        state: z.enum(['empty', 'building', 'stale', 'ready']).meta({
          description:
            'building: the first trees are being built; stale: queued changes are not in them yet (or the last upkeep failed)',
        }),
        nodes_per_level: z
          .array(z.number().int())
          .meta({ description: 'Over all indexes; index 0 counts the leaves (chunks), 1-4 the summaries' }),
        pending_documents: z.number().int(),
        summaries_written: z
          .number()
          .int()
          .meta({ description: 'Summaries created or rewritten since start-up' }),
      })
      .meta({ description: 'The RAPTOR trees of this process (one per index)' }),
    memory_vectors: z
      .object({
        model: z
          .string()
          .meta({ description: 'The vector space of memories (use-lite-v1-512 on the neural path)' }),
        state: z.enum(['idle', 'running', 'done', 'failed']),
        reembedded: z.number().int().meta({ description: 'Memories moved into the space since start-up' }),
        pending: z.number().int().meta({
          description:
            'Memories still without a vector in the space: being re-embedded, or remembered and waiting for the background pass (found by their words until then)',
        }),
        oldest_pending_at: timestamp
          .nullable()
          .meta({ description: 'When the oldest memory still waiting for its vector was remembered' }),
      })
      .nullable()
      .meta({
        description:
          'Memories being re-embedded into a newly configured space in the background; null on the chain path',
      }),
    enrichment: EnrichmentStatsSchema,
  })
  .meta({ id: 'BrainStats' });

const cacheLevel = { hits: z.number().int(), misses: z.number().int(), hit_rate: z.number() };

export const CacheStatsSchema = z
  .object({
    l1: z.object({ ...cacheLevel, entries: z.number().int() }),
    l2: z.object({
      ...cacheLevel,
      enabled: z.boolean().meta({ description: 'True when REDIS_URL is set' }),
      errors: z.number().int(),
    }),
    generation: z
      .number()
      .int()
      .meta({ description: 'Bumped by every ingest; older entries are unreachable' }),
  })
  .meta({ id: 'BrainCacheStats' });
