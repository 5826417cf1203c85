/** Turns texts into vectors of one model's space. */
export interface EmbeddingProvider {
  /** Provider id used in metrics and logs (e.g. `primary`, `secondary`, `local`). */
  id: string;
  /** Model id; names the vector space the provider's vectors live in. */
  model: string;
  dimensions: number;
  /** One vector per text, in order. `signal` aborts the call. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** A query's vector, where the provider serves queries apart from batches (threads of its own); else `embed`. */
  embedQuery?(text: string): Promise<number[]>;
}

/**
 * A provider call that failed. `retryable` marks transient failures (network, timeout, 408, 429, 5xx);
 * `countsAgainstProvider` is false for failures caused by the request itself (400, 413, 422), which must
 * not open the provider's circuit for everyone else.
 */
export class EmbeddingProviderError extends Error {
  readonly provider: string;
  readonly status?: number;
  readonly retryable: boolean;
  readonly countsAgainstProvider: boolean;

  constructor(
    provider: string,
    message: string,
    options: { status?: number; retryable: boolean; countsAgainstProvider?: boolean; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = 'EmbeddingProviderError';
    this.provider = provider;
    this.status = options.status;
    this.retryable = options.retryable;
    this.countsAgainstProvider = options.countsAgainstProvider ?? true;
  }
}

/** True when an error says something about the provider's health (anything but a request-specific rejection). */
export function countsAgainstProvider(error: unknown): boolean {
  return !(error instanceof EmbeddingProviderError) || error.countsAgainstProvider;
}

/** True when retrying the same call may succeed. Unknown errors are treated as transient. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof EmbeddingProviderError) || error.retryable;
}
