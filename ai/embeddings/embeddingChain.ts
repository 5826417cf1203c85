import { performance } from 'node:perf_hooks';
import pino, { type Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import { UnavailableError } from '../../platform/errors';
import { embeddingFallbacks, embeddingLatency, embeddingTotal } from '../../platform/metrics';
import type { VectorSpace } from '../retrieval/vectorIndex';
import {
  CircuitBreaker,
  CircuitOpenError,
  type CircuitBreakerOptions,
  type CircuitState,
} from './circuitBreaker';
import { countsAgainstProvider, isRetryable, type EmbeddingProvider } from './provider';
import { DEFAULT_RETRY_OPTIONS, withRetry, type RetryOptions } from './retry';

/** Chain settings. Defaults: SPEC retry (3 × from 500 ms) and breaker (5 / 60 s / 3), batches of 64 texts. */
export interface EmbeddingChainOptions {
  /** Tried in order: typically primary cloud, secondary cloud, local. */
  providers: EmbeddingProvider[];
  clock?: Clock;
  retry?: Partial<RetryOptions>;
  breaker?: Partial<Omit<CircuitBreakerOptions, 'clock' | 'isFailure'>>;
  batchSize?: number;
  logger?: Logger;
}

/** Vectors with the provider and model that made them: store them in that model's space only. */
export interface EmbeddingResult {
  vectors: number[][];
  provider: string;
  model: string;
}

/** A query vector and the model space to search with it. */
export interface QueryEmbedding {
  vector: number[];
  provider: string;
  model: string;
}

/**
 * The embedding fallback chain of SPEC.md 1: each provider behind its own circuit breaker, each call
 * retried (3 attempts, exponential from 0.5 s; the breaker sits inside the retry, so every attempt counts
 * and an opening circuit stops the retries). A provider that fails or is OPEN is passed over — counted in
 * `brain_embedding_fallbacks_total{provider}` — and the next one embeds *all* the texts, so one result
 * never mixes spaces. Throws UnavailableError (503, BRAIN_EMBEDDING_UNAVAILABLE) when every provider failed.
 */
export class EmbeddingChain {
  private readonly providers: EmbeddingProvider[];
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly retry: RetryOptions;
  private readonly batchSize: number;
  private readonly logger: Logger;

  constructor(options: EmbeddingChainOptions) {
    if (options.providers.length === 0) throw new Error('EmbeddingChain needs at least one provider');
    this.providers = options.providers;
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.batchSize = options.batchSize ?? 64;
    this.logger = options.logger ?? pino({ level: 'silent' });
    for (const provider of this.providers) {
      const breaker = new CircuitBreaker(provider.id, {
        ...options.breaker,
        clock: options.clock ?? systemClock,
        isFailure: countsAgainstProvider,
      });
      this.breakers.set(provider.id, breaker);
    }
  }

  /** The vector spaces this chain can produce, in preference order (one per distinct model). */
  spaces(): VectorSpace[] {
    const seen = new Map<string, VectorSpace>();
    for (const p of this.providers)
      if (!seen.has(p.model)) seen.set(p.model, { model: p.model, dimensions: p.dimensions });
    return [...seen.values()];
  }

  /** Each provider's circuit state, in chain order. */
  breakerStates(): { provider: string; model: string; state: CircuitState }[] {
    return this.providers.map((p) => ({
      provider: p.id,
      model: p.model,
      state: this.breakers.get(p.id)!.state,
    }));
  }

  /**
   * Embeds texts for storage with the first provider that succeeds; with `allowedModels`, only providers of
   * those models are tried (to add chunks to a document's existing space).
   */
  async embed(texts: string[], allowedModels?: readonly string[]): Promise<EmbeddingResult> {
    const providers = this.providersFor(allowedModels);
    if (texts.length === 0) return { vectors: [], provider: providers[0].id, model: providers[0].model };
    return this.runChain(providers, texts);
  }

  /**
   * Embeds a query with the first working provider whose model is in `allowedModels` (the spaces the corpus
   * has vectors in), so the query is only ever compared with vectors of its own model.
   */
  async embedQuery(text: string, allowedModels: readonly string[]): Promise<QueryEmbedding> {
    const result = await this.runChain(this.providersFor(allowedModels), [text], true);
    return { vector: result.vectors[0], provider: result.provider, model: result.model };
  }

  private providersFor(allowedModels: readonly string[] | undefined): EmbeddingProvider[] {
    if (!allowedModels) return this.providers;
    const candidates = this.providers.filter((p) => allowedModels.includes(p.model));
    if (candidates.length === 0) {
      throw new UnavailableError(
        `No embedding provider serves the vector spaces ${allowedModels.join(', ') || '(none)'}`,
        'BRAIN_NO_EMBEDDING_MODEL',
      );
    }
    return candidates;
  }

  private async runChain(
    providers: EmbeddingProvider[],
    texts: string[],
    query = false,
  ): Promise<EmbeddingResult> {
    const failures: string[] = [];
    for (const provider of providers) {
      const breaker = this.breakers.get(provider.id)!;
      if (!breaker.admitsCalls) {
        embeddingFallbacks.inc({ provider: provider.id });
        failures.push(`${provider.id}: circuit ${breaker.state}`);
        continue;
      }
      try {
        const vectors = await this.embedWith(provider, breaker, texts, query);
        return { vectors, provider: provider.id, model: provider.model };
      } catch (error) {
        embeddingFallbacks.inc({ provider: provider.id });
        // The provider's error text may carry its URL or host: it goes to the log (URLs redacted), not the body.
        failures.push(`${provider.id}: failed`);
        this.logger.warn({ provider: provider.id, err: error }, 'embedding provider failed, falling back');
      }
    }
    throw new UnavailableError(
      `All embedding providers failed (${failures.join('; ')})`,
      'BRAIN_EMBEDDING_UNAVAILABLE',
      {
        providers: providers.map((p) => p.id),
      },
    );
  }

  private async embedWith(
    provider: EmbeddingProvider,
    breaker: CircuitBreaker,
    texts: string[],
    query: boolean,
  ): Promise<number[][]> {
    const embed = (batch: string[]) =>
      query && provider.embedQuery
        ? Promise.all(batch.map((text) => provider.embedQuery!(text)))
        : provider.embed(batch);
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize);
      const started = performance.now();
      try {
        // No wait once the failure has opened the circuit: the next attempt would be refused anyway.
        const shouldRetry = (error: unknown) =>
          !(error instanceof CircuitOpenError) && isRetryable(error) && breaker.admitsCalls;
        vectors.push(
          ...(await withRetry(() => breaker.execute(() => embed(batch)), shouldRetry, this.retry)),
        );
      } catch (error) {
        embeddingTotal.inc({ provider: provider.id, outcome: 'failure' });
        throw error;
      }
      embeddingTotal.inc({ provider: provider.id, outcome: 'success' });
      embeddingLatency.observe({ provider: provider.id }, (performance.now() - started) / 1000);
    }
    return vectors;
  }
}
