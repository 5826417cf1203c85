import { z } from 'zod';
import {
  AskRequestSchema,
  AskResponseSchema,
  SearchV2RequestSchema,
  SearchV2ResponseSchema,
  type BrainService,
  RouteSchema,
} from '../../brain';
import { ACCESS, READ_ONLY, defineTool, type AnyTool } from '../toolDefinition';

const v2 = SearchV2RequestSchema.shape;
const SearchV2Input = z.strictObject({
  query: v2.query.meta({ description: 'A question or keywords (1-1000 characters)' }),
  strategy: v2.strategy,
  indexes: v2.indexes,
  limit: v2.limit.meta({ description: 'Most hits to return (1-50, default 10)' }),
  rerank: v2.rerank,
  filters: v2.filters,
});

const ask = AskRequestSchema.shape;
const AskInput = z.strictObject({
  question: ask.question.meta({ description: 'The question, in plain words (1-2000 characters)' }),
  indexes: ask.indexes,
  strategy: ask.strategy,
  max_context_tokens: ask.max_context_tokens,
});

type SearchV2Output = z.infer<typeof SearchV2ResponseSchema>;

function summariseSearchV2(output: SearchV2Output): string {
  const route = `${output.route.class ?? 'named'}: ${output.route.strategies.join('+')}`;
  if (output.hits.length === 0) return `No hits for "${output.query}" (${route}).`;
  const lines = output.hits
    .slice(0, 5)
    .map((hit, index) => `${index + 1}. ${hit.title} — ${hit.source}:${hit.start_line}-${hit.end_line}`);
  return `${output.hits.length} hits for "${output.query}" (${route}${output.degraded ? ', degraded' : ''}):\n${lines.join('\n')}`;
}

/**
 * The brain's retrieval v2 as tools: `brain_search` (the adaptive router over the five strategies, reranked) and
 * `brain_ask` (an answer with numbered citations, or an abstention). The same access as the routes: search is
 * public, ask needs a signed-in caller or the service token (every MCP caller is one of them).
 */
export function brainRetrievalTools(brain: BrainService): AnyTool[] {
  return [
    defineTool({
      name: 'brain_route_query',
      title: 'Which route a search would take',
      description:
        'Says how brain_search would handle a query without searching: the class the router gives it (SIMPLE, ' +
        'FACTUAL, EXPLORATORY, COMPLEX), the strategies it would run, whether it reranks, and why. Cheap; use it to ' +
        'choose a strategy or explain a result.',
      input: z.strictObject({
        query: v2.query.meta({ description: 'The query, as you would search it' }),
        strategy: v2.strategy,
      }),
      output: RouteSchema.extend({ query: z.string() }),
      annotations: READ_ONLY,
      access: ACCESS.anyone,
      handler: ({ query, strategy }) => Promise.resolve({ query, ...brain.routeQuery(query, strategy) }),
      summarise: (route) =>
        `${route.class ?? 'named'}: ${route.strategies.join('+')}${route.reranked ? ', reranked' : ''} (${route.reason}).`,
    }),
    defineTool({
      name: 'brain_search',
      title: 'Search the knowledge base (routed)',
      description:
        "The best first search of the platform's documents, code and tests: a router classifies the query " +
        '(SIMPLE keywords, FACTUAL question, EXPLORATORY topic, COMPLEX comparison) and runs the strategies that ' +
        'suit it, fused and reranked. `route` says what ran and why. Name a strategy to force one.',
      input: SearchV2Input,
      output: SearchV2ResponseSchema,
      annotations: READ_ONLY,
      access: ACCESS.anyone,
      cost: 2,
      handler: (input) => brain.searchV2(input),
      summarise: summariseSearchV2,
    }),
    defineTool({
      name: 'brain_ask',
      title: 'Answer a question from the knowledge base',
      description:
        'Answers from the indexed documents only: every [n] in the answer names an entry of `citations` (source, ' +
        'line range, the quoted sentence). When the documents do not hold the answer it abstains with "The indexed ' +
        'documents do not say." and grounded false; do not answer from elsewhere then without saying so.',
      input: AskInput,
      output: AskResponseSchema,
      annotations: READ_ONLY,
      access: ACCESS.anyone,
      cost: 5,
      handler: (input) => brain.ask(input),
      summarise: (answer) =>
        answer.grounded
          ? `${answer.answer}\n${answer.citations.map((c) => `[${c.n}] ${c.source}:${c.start_line}-${c.end_line}`).join('\n')}`
          : answer.answer,
    }),
  ];
}
