import { z } from 'zod';
import { EmbeddingProviderError } from '../embeddings/provider';
import type { GenerationRequest, TextGenerator } from './textGenerator';

/** An OpenAI-compatible chat endpoint. Defaults: 30 s timeout, temperature 0, global fetch. */
export interface HttpChatProviderOptions {
  /** Provider id for metrics and logs, e.g. `primary`. */
  id: string;
  /** Full endpoint URL, e.g. `https://api.openai.com/v1/chat/completions`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const responseSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** Request-specific rejections: retrying or blaming the provider would not help. */
const REQUEST_FAULT_STATUSES = new Set([400, 413, 422]);

/**
 * Generates through an OpenAI-compatible `POST /v1/chat/completions` (`{ model, messages, max_tokens,
 * temperature: 0 }` → `choices[0].message.content`). Failures are the embedding providers' error type with
 * the same rules, so the chain's retry and breaker treat both alike: network errors, timeouts, 408, 429 and
 * 5xx are retryable; 400/413/422 are the request's fault (not retried, not counted against the provider);
 * a malformed body or an empty reply is a non-retryable provider failure.
 */
export class HttpChatProvider implements TextGenerator {
  readonly id: string;
  readonly model: string;

  constructor(private readonly options: HttpChatProviderOptions) {
    this.id = options.id;
    this.model = options.model;
  }

  async generate(request: GenerationRequest, signal?: AbortSignal): Promise<string> {
    const { id, url, model, apiKey, timeoutMs = 30_000 } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({
      model,
      messages: request.messages,
      max_tokens: request.maxTokens ?? 512,
      temperature: 0,
    });
    let response: Response;
    let text: string;
    try {
      response = await (this.options.fetch ?? fetch)(url, {
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
    if (!response.ok) {
      const status = response.status;
      throw new EmbeddingProviderError(id, `${id} answered HTTP ${status}: ${text.slice(0, 200)}`, {
        status,
        retryable: status === 408 || status === 429 || status >= 500,
        countsAgainstProvider: !REQUEST_FAULT_STATUSES.has(status),
      });
    }
    let parsed;
    try {
      parsed = responseSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    const content = parsed?.success ? parsed.data.choices[0].message.content.trim() : '';
    if (content === '') {
      throw new EmbeddingProviderError(id, `${id} answered without a message`, { retryable: false });
    }
    return content;
  }
}
