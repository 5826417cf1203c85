import { z } from 'zod';
import { INDEX_NAMES } from '../../models/corpusRecords';
import { STRATEGY_NAMES } from '../../ai/retrieval/hit';
import { SERVED_STRATEGIES } from '../../ai/retrieval/searchService';

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
  })
  .meta({ id: 'BrainIngestResult' });

export const IngestResponseSchema = z
  .object({
    documents: z.array(IngestResultSchema),
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
        'come from the rest; such answers are not cached',
    }),
    took_ms: z.number(),
    hits: z.array(SearchHitSchema),
  })
  .meta({ id: 'BrainSearchResponse' });

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
    embedding_providers: z.array(
      z.object({
        provider: z.string(),
        model: z.string(),
        state: z.enum(['CLOSED', 'HALF_OPEN', 'OPEN']).meta({ description: 'Circuit-breaker state' }),
      }),
    ),
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
