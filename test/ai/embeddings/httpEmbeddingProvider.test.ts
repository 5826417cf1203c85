import { HttpEmbeddingProvider } from '../../../ai/embeddings/httpEmbeddingProvider';
import { EmbeddingProviderError } from '../../../ai/embeddings/provider';
import { fakeVector, startFakeEmbeddingServer, type FakeEmbeddingServer } from './fakeEmbeddingServer';

describe('HttpEmbeddingProvider', () => {
  let server: FakeEmbeddingServer;
  let provider: HttpEmbeddingProvider;

  /** A provider of the fake server; a generous timeout unless a test is about timing out (a loaded CI machine
   * once took over 200 ms for a file's first request). */
  const providerFor = (timeoutMs = 10_000) =>
    new HttpEmbeddingProvider({
      id: 'primary',
      url: server.url,
      model: 'm-small',
      dimensions: 4,
      apiKey: 'k-1',
      timeoutMs,
    });

  beforeEach(async () => {
    server = await startFakeEmbeddingServer(4);
    provider = providerFor();
  });

  afterEach(() => server.close());

  async function failure(run: Promise<unknown>): Promise<EmbeddingProviderError> {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof EmbeddingProviderError))
      throw new Error(`expected EmbeddingProviderError, got ${String(error)}`);
    return error;
  }

  it('posts the model and inputs with the bearer key and returns vectors in input order', async () => {
    const vectors = await provider.embed(['a', 'bbb']);

    expect(vectors).toEqual([fakeVector('a', 4), fakeVector('bbb', 4)]);
    expect(server.requests).toEqual([{ model: 'm-small', input: ['a', 'bbb'], authorization: 'Bearer k-1' }]);
  });

  it.each([
    [503, true, true],
    [429, true, true],
    [401, false, true],
    [400, false, false],
  ])('maps HTTP %i to retryable=%s, countsAgainstProvider=%s', async (status, retryable, counts) => {
    server.fallback = { kind: 'status', status };

    const error = await failure(provider.embed(['a']));

    expect([error.status, error.retryable, error.countsAgainstProvider]).toEqual([status, retryable, counts]);
    expect(error.message).toBe(`primary answered HTTP ${status}: {"error":{"message":"boom"}}`);
  });

  it('times out a stalled server as a retryable failure', async () => {
    server.fallback = { kind: 'stall' };

    const error = await failure(providerFor(200).embed(['a']));

    expect([error.message, error.retryable]).toEqual(['primary timed out after 200 ms', true]);
  });

  it('rejects a body that is not JSON, without retry', async () => {
    server.fallback = { kind: 'garbage' };

    const error = await failure(provider.embed(['a']));

    expect([error.message, error.retryable]).toEqual([
      'primary answered with a body that is not JSON',
      false,
    ]);
  });

  it('rejects vectors of the wrong size', async () => {
    const wrong = new HttpEmbeddingProvider({ id: 'primary', url: server.url, model: 'm', dimensions: 8 });

    const error = await failure(wrong.embed(['a']));

    expect(error.message).toBe('primary returned 4 dimensions, expected 8');
  });
});
