import { z } from 'zod';
import { ValidationError } from '../../../platform/errors';
import {
  BrainStatsSchema,
  CacheStatsSchema,
  IngestRequestSchema,
  IngestResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  type BrainService,
} from '../../brain';
import { callerKey } from '../toolAccess';
import { brainRetrievalTools } from './brainRetrieval';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';

/** What the brain worker is built from. */
export interface BrainWorkerOptions {
  brain: BrainService;
  /** BRAIN_INGEST_MAX_DOCUMENTS. */
  maxDocumentsPerIngest: number;
}

const searchShape = SearchRequestSchema.shape;
const SearchInput = z.strictObject({
  query: searchShape.query.meta({ description: 'What to look for (1-1000 characters)' }),
  indexes: searchShape.indexes,
  limit: searchShape.limit.meta({ description: 'Most hits to return (1-50, default 10)' }),
});
const NoInput = z.strictObject({});

type SearchOutput = z.infer<typeof SearchResponseSchema>;

const STRATEGIES = {
  fulltext: {
    title: 'Search the knowledge base by keywords',
    use: 'BM25 keyword matching, the fastest: use it for exact names, identifiers, error codes and file paths.',
  },
  semantic: {
    title: 'Search the knowledge base by meaning',
    use: 'Embedding similarity: use it when the words you have may differ from the documents’ words.',
  },
  hybrid: {
    title: 'Search the knowledge base (keywords and meaning)',
    use: 'Fulltext and semantic lists fused by reciprocal rank: the best default for a question in plain words.',
  },
} as const;

function summariseSearch(output: SearchOutput): string {
  if (output.hits.length === 0) return `No hits for "${output.query}" (${output.strategy}).`;
  const lines = output.hits
    .slice(0, 5)
    .map((hit, index) => `${index + 1}. ${hit.title} — ${hit.source}:${hit.start_line}-${hit.end_line}`);
  const more = output.hits.length > 5 ? `\n… ${output.hits.length - 5} more in the structured result` : '';
  return `${output.hits.length} hits for "${output.query}" (${output.strategy}${output.degraded ? ', degraded' : ''}):\n${lines.join('\n')}${more}`;
}

/** The brain worker: routed search and ask, search by one strategy, statistics, cache statistics and ingestion. */
export function brainWorker(options: BrainWorkerOptions): Worker {
  const { brain } = options;
  const searchTools = (['fulltext', 'semantic', 'hybrid'] as const).map((strategy) =>
    defineTool({
      name: `brain_search_${strategy}`,
      title: STRATEGIES[strategy].title,
      description:
        `Searches the platform's knowledge base (indexes: docs, code, tests). ${STRATEGIES[strategy].use} ` +
        'Returns ranked hits with source path, line range, title and a snippet (matches in <mark>).',
      input: SearchInput,
      output: SearchResponseSchema,
      annotations: READ_ONLY,
      access: ACCESS.anyone,
      handler: (input) => brain.search({ ...input, strategy }),
      summarise: summariseSearch,
    }),
  );
  return {
    name: 'brain',
    description:
      'The knowledge base: routed search and answers with citations, single-strategy search, statistics and ingestion.',
    stores: ['mongo', 'qdrant'],
    probe: () => {
      const states = brain.providerStates();
      const open = states.filter((provider) => provider.state === 'OPEN');
      if (open.length === 0) return { state: 'up' };
      const reason = `embedding provider breaker open: ${open.map((provider) => provider.provider).join(', ')}`;
      return { state: 'degraded', reason };
    },
    prompts: [
      {
        name: 'research_question',
        title: 'Answer from the knowledge base',
        description: 'Answer a question from the platform’s documents, citing the sources found.',
        arguments: [{ name: 'question', description: 'The question to answer', required: true }],
        access: ACCESS.anyone,
        render: ({ question }) =>
          `Answer this question from the Forge Platform knowledge base: ${question}\n` +
          'Try brain_ask first; if it abstains or you need more, search with brain_search, and use ' +
          'brain_search_fulltext for exact names, codes or paths. ' +
          'Answer only from the hits, cite each claim as source:start_line-end_line, and say plainly when the ' +
          'hits do not answer the question.',
      },
    ],
    tools: [
      ...brainRetrievalTools(brain),
      ...searchTools,
      defineTool({
        name: 'brain_stats',
        title: 'Knowledge base statistics',
        description:
          'Documents and chunks per index, vectors per embedding model, the last ingest time, searches served ' +
          'and each embedding provider’s circuit-breaker state.',
        input: NoInput,
        output: BrainStatsSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: () => brain.stats(),
        summarise: (stats) =>
          `${stats.total_documents} documents, ${stats.total_chunks} chunks; last ingest ${stats.last_ingest_at ?? 'never'}.`,
      }),
      defineTool({
        name: 'brain_cache_stats',
        title: 'Search cache statistics',
        description: 'Hits, misses and hit rate of the search cache per level (L1 in process, L2 Redis).',
        input: NoInput,
        output: CacheStatsSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async () => brain.cacheStats(),
        summarise: (stats) =>
          `L1 hit rate ${stats.l1.hit_rate}, L2 hit rate ${stats.l2.hit_rate}${stats.l2.enabled ? '' : ' (L2 off)'}.`,
      }),
      defineTool({
        name: 'brain_ingest',
        title: 'Add documents to the knowledge base',
        description:
          'Ingests documents into the docs, code or tests index: chunked, deduplicated, embedded and indexed. ' +
          'Re-ingesting a source replaces its chunks. One invalid document rejects the whole batch; a document ' +
          'holding a secret (private key, seed phrase, provider token) is refused on its own and listed in ' +
          '`refused` with the kind and line, never the value. For operators, ' +
          'admins and the service token; each stored version records who ingested it.',
        input: IngestRequestSchema,
        output: IngestResponseSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.operator,
        callsPerMinute: 20,
        cost: 10,
        handler: (input, call) => {
          if (input.documents.length > options.maxDocumentsPerIngest) {
            throw new ValidationError(
              `At most ${options.maxDocumentsPerIngest} documents per call`,
              [{ path: 'documents', message: `has ${input.documents.length} documents` }],
              'BRAIN_TOO_MANY_DOCUMENTS',
            );
          }
          return brain.ingest(input.documents, callerKey(call.caller));
        },
        summarise: ({ totals }) =>
          `Ingested: ${totals.created} created, ${totals.updated} updated, ${totals.unchanged} unchanged (${totals.chunks} chunks).`,
      }),
    ],
  };
}
