import pino, { type Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import { generationTotal } from '../../platform/retrievalMetrics';
import {
  CircuitBreaker,
  CircuitOpenError,
  type CircuitBreakerOptions,
  type CircuitState,
} from '../embeddings/circuitBreaker';
import { countsAgainstProvider, isRetryable } from '../embeddings/provider';
import { DEFAULT_RETRY_OPTIONS, withRetry, type RetryOptions } from '../embeddings/retry';
import type { GenerationRequest, TextGenerator } from './textGenerator';

/** Chain settings. Defaults: the embedding chain's SPEC retry (3 × from 500 ms) and breaker (5 / 60 s / 3). */
export interface GenerationChainOptions {
  /** LLM endpoints, tried in order (primary, secondary). */
  providers: TextGenerator[];
  /** Always last and never failing: the offline extractive generator. */
  offline: TextGenerator;
  clock?: Clock;
  retry?: Partial<RetryOptions>;
  breaker?: Partial<Omit<CircuitBreakerOptions, 'clock' | 'isFailure'>>;
  logger?: Logger;
}

/** Generated text and who wrote it. `offline` is true when the extractive generator did. */
export interface Generation {
  text: string;
  provider: string;
  model: string;
  offline: boolean;
}

/**
 * The text-generation fallback chain beside the embedding chain, with the same rules: each LLM provider
 * behind its own circuit breaker, each call retried (the breaker inside the retry, so every attempt counts
 * and an opening circuit stops the retries), a failing or OPEN provider passed over. The offline
 * extractive generator is always last, so generation never fails for want of a provider; calls are
 * counted in `brain_generation_total{provider,outcome}`.
 */
export class GenerationChain {
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly retry: RetryOptions;
  private readonly logger: Logger;

  constructor(private readonly options: GenerationChainOptions) {
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.logger = options.logger ?? pino({ level: 'silent' });
    for (const provider of options.providers) {
      this.breakers.set(
        provider.id,
        new CircuitBreaker(`llm:${provider.id}`, {
          ...options.breaker,
          clock: options.clock ?? systemClock,
          isFailure: countsAgainstProvider,
        }),
      );
    }
  }

  /** True when an LLM endpoint is configured (else everything is extractive). */
  get hasLlm(): boolean {
    return this.options.providers.length > 0;
  }

  /** Each provider's circuit state, in chain order, the offline generator last (always CLOSED). */
  breakerStates(): { provider: string; model: string; state: CircuitState }[] {
    return [
      ...this.options.providers.map((p) => ({
        provider: p.id,
        model: p.model,
        state: this.breakers.get(p.id)!.state,
      })),
      { provider: this.options.offline.id, model: this.options.offline.model, state: 'CLOSED' as const },
    ];
  }

  /** Generates with the first provider that succeeds; the offline generator answers when all LLMs fail. */
  async generate(request: GenerationRequest): Promise<Generation> {
    for (const provider of this.options.providers) {
      const breaker = this.breakers.get(provider.id)!;
      if (!breaker.admitsCalls) continue;
      try {
        const shouldRetry = (error: unknown) =>
          !(error instanceof CircuitOpenError) && isRetryable(error) && breaker.admitsCalls;
        const text = await withRetry(
          () => breaker.execute(() => provider.generate(request)),
          shouldRetry,
          this.retry,
        );
        generationTotal.inc({ provider: provider.id, outcome: 'success' });
        return { text, provider: provider.id, model: provider.model, offline: false };
      } catch (error) {
        generationTotal.inc({ provider: provider.id, outcome: 'failure' });
        this.logger.warn({ provider: provider.id, err: error }, 'LLM provider failed, falling back');
      }
    }
    const offline = this.options.offline;
    const text = await offline.generate(request);
    generationTotal.inc({ provider: offline.id, outcome: 'success' });
    return { text, provider: offline.id, model: offline.model, offline: true };
  }
}
