import client from 'prom-client';
import { registry } from './metrics';

/**
 * Metrics of the brain's routed search (POST /brain/search/v2) and question answering (POST /brain/ask),
 * registered on the platform's registry beside the SPEC 6 families of metrics.ts.
 */

/** Routed searches, by router class (`named` when the request chose a strategy) and strategy run. */
export const routedSearchTotal = new client.Counter({
  name: 'brain_routed_search_total',
  help: 'Routed searches (v2), by router class and strategy run',
  labelNames: ['class', 'strategy'] as const,
  registers: [registry],
});

/** Routed searches answered from the remaining strategies after one failed. */
export const routedSearchDegraded = new client.Counter({
  name: 'brain_routed_search_degraded_total',
  help: 'Routed searches (v2) answered degraded, by router class',
  labelNames: ['class'] as const,
  registers: [registry],
});

/** Questions answered by POST /brain/ask, by outcome (answered, abstained) and generator model. */
export const askTotal = new client.Counter({
  name: 'brain_ask_total',
  help: 'Questions asked, by outcome (answered, abstained) and model',
  labelNames: ['outcome', 'model'] as const,
  registers: [registry],
});

/** POST /brain/ask latency in seconds (search, context and generation). */
export const askLatency = new client.Histogram({
  name: 'brain_ask_latency_seconds',
  help: 'Question answering latency in seconds',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Text generation calls of the LLM chain, by provider and outcome (success, failure). */
export const generationTotal = new client.Counter({
  name: 'brain_generation_total',
  help: 'LLM generation calls, by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});
