import { z } from 'zod';
import { EmbeddingProviderError, type EmbeddingProvider } from './provider';

/** An OpenAI-compatible embeddings endpoint. Defaults: 10 s timeout, global fetch, no `dimensions` sent. */
export interface HttpEmbeddingProviderOptions {
  /** Provider id for metrics and logs, e.g. `primary`. */
  id: string;
  /** Full endpoint URL, e.g. `https://api.openai.com/v1/embeddings`. */
  url: string;
  model: string;
  /** Vector size the model returns (1536 for text-embedding-3-small); declared up front for the vector space. */
  dimensions: number;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  timeoutMs?: number;
  /** Send `dimensions` in the request (OpenAI's text-embedding-3 models can shorten vectors). */
  requestDimensions?: boolean;
  fetch?: typeof fetch;
}

const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

/** Request-specific rejections: retrying or blaming the provider would not help. */
const REQUEST_FAULT_STATUSES = new Set([400, 413, 422]);

function statusError(id: string, status: number, body: string): EmbeddingProviderError {
  const transient = status === 408 || status === 429 || status >= 500;
  return new EmbeddingProviderError(id, `${id} answered HTTP ${status}: ${body.slice(0, 200)}`, {
    status,
    retryable: transient,
    countsAgainstProvider: !REQUEST_FAULT_STATUSES.has(status),
  });
}

/**
 * Embeds through an OpenAI-compatible `POST /v1/embeddings` (`{ model, input: string[] }` →
 * `{ data: [{ index, embedding }] }`). Network errors, timeouts, 408, 429 and 5xx are retryable; a
 * malformed body or a vector of the wrong size is a non-retryable provider failure.
 */
export class HttpEmbeddingProvider implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;
  private readonly options: HttpEmbeddingProviderOptions;

  constructor(options: HttpEmbeddingProviderOptions) {
    this.options = options;
    this.id = options.id;
    this.model = options.model;
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const { id, url, model, apiKey, timeoutMs = 10_000 } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({
      model,
      input: texts,
      ...(this.options.requestDimensions ? { dimensions: this.dimensions } : {}),
    });

    let response: Response;
    let text: string;
    try {
      const doFetch = this.options.fetch ?? fetch;
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      const reason = timeout.aborted
        ? `timed out after ${timeoutMs} ms`
        : `request failed: ${(error as Error).message}`;
      throw new EmbeddingProviderError(id, `${id} ${reason}`, { retryable: true, cause: error });
    }
    if (!response.ok) throw statusError(id, response.status, text);
    return this.parse(text, texts.length);
  }

  private parse(text: string, expected: number): number[][] {
    const fail = (message: string) =>
      new EmbeddingProviderError(this.id, `${this.id} ${message}`, { retryable: false });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail('answered with a body that is not JSON');
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) throw fail('answered without a valid data[] of embeddings');
    const vectors: number[][] = new Array(expected);
    for (const item of parsed.data.data) {
      if (item.index >= expected) throw fail(`returned index ${item.index} for ${expected} inputs`);
      if (item.embedding.length !== this.dimensions) {
        throw fail(`returned ${item.embedding.length} dimensions, expected ${this.dimensions}`);
      }
      vectors[item.index] = item.embedding;
    }
    if (parsed.data.data.length !== expected || vectors.some((v) => v === undefined)) {
      throw fail(`returned ${parsed.data.data.length} embeddings for ${expected} inputs`);
    }
    return vectors;
  }
}
