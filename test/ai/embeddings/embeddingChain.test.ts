import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { HttpEmbeddingProvider } from '../../../ai/embeddings/httpEmbeddingProvider';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { ManualClock } from '../../../platform/clock';
import { UnavailableError } from '../../../platform/errors';
import { embeddingFallbacks, embeddingTotal } from '../../../platform/metrics';
import { fakeVector, startFakeEmbeddingServer, type FakeEmbeddingServer } from './fakeEmbeddingServer';
import { metricValue } from './metricValue';

let run = 0;

describe('EmbeddingChain', () => {
  let primaryServer: FakeEmbeddingServer;
  let secondaryServer: FakeEmbeddingServer;
  let clock: ManualClock;
  let waits: number[];
  let ids: { primary: string; secondary: string };
  const local = new LocalHashEmbedder();

  beforeEach(async () => {
    [primaryServer, secondaryServer] = await Promise.all([
      startFakeEmbeddingServer(4),
      startFakeEmbeddingServer(3),
    ]);
    clock = new ManualClock();
    waits = [];
    run++;
    ids = { primary: `primary-${run}`, secondary: `secondary-${run}` };
  });

  afterEach(() => Promise.all([primaryServer.close(), secondaryServer.close()]));

  function buildChain(overrides: { withLocal?: boolean; batchSize?: number } = {}) {
    const providers = [
      new HttpEmbeddingProvider({
        id: ids.primary,
        url: primaryServer.url,
        model: 'm-primary',
        dimensions: 4,
        // Long enough that a loaded machine never times out a fake server that answers; the stall test waits it out.
        timeoutMs: 1000,
      }),
      new HttpEmbeddingProvider({
        id: ids.secondary,
        url: secondaryServer.url,
        model: 'm-secondary',
        dimensions: 3,
      }),
      ...(overrides.withLocal === false ? [] : [local]),
    ];
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock.advance(ms);
    };
    return new EmbeddingChain({ providers, clock, retry: { sleep }, batchSize: overrides.batchSize });
  }

  it('embeds with the primary provider when it answers', async () => {
    const result = await buildChain().embed(['hello']);

    expect(result).toEqual({ vectors: [fakeVector('hello', 4)], provider: ids.primary, model: 'm-primary' });
    expect(await metricValue(embeddingTotal, { provider: ids.primary, outcome: 'success' })).toBe(1);
  });

  it('retries a failing primary 3 times with backoff, then falls back to the secondary', async () => {
    primaryServer.fallback = { kind: 'status', status: 503 };

    const result = await buildChain().embed(['hello']);

    expect([result.provider, result.model]).toEqual([ids.secondary, 'm-secondary']);
    expect(primaryServer.requests).toHaveLength(3);
    expect(waits).toEqual([500, 1000]);
    expect(await metricValue(embeddingFallbacks, { provider: ids.primary })).toBe(1);
    expect(await metricValue(embeddingTotal, { provider: ids.primary, outcome: 'failure' })).toBe(1);
  });

  it('falls back after a stalled primary times out on every attempt', async () => {
    primaryServer.fallback = { kind: 'stall' };

    const result = await buildChain().embed(['hello']);

    expect(result.provider).toBe(ids.secondary);
    expect(primaryServer.requests).toHaveLength(3);
  }, 30_000);

  it('opens the primary circuit, skips it without calling, and closes it after 3 trials once recovered', async () => {
    primaryServer.fallback = { kind: 'status', status: 500 };
    const chain = buildChain();

    await chain.embed(['one']);
    await chain.embed(['two']);
    expect(primaryServer.requests).toHaveLength(5);
    expect(chain.breakerStates()[0].state).toBe('OPEN');

    await chain.embed(['three']);
    expect(primaryServer.requests).toHaveLength(5);
    expect(await metricValue(embeddingFallbacks, { provider: ids.primary })).toBe(3);

    primaryServer.fallback = { kind: 'ok' };
    clock.advance(60_000);
    const trials = [await chain.embed(['a']), await chain.embed(['b']), await chain.embed(['c'])];

    expect(trials.map((t) => t.provider)).toEqual([ids.primary, ids.primary, ids.primary]);
    expect(chain.breakerStates()[0].state).toBe('CLOSED');
  });

  it('uses the local embedder when both cloud providers are down', async () => {
    primaryServer.fallback = { kind: 'status', status: 502 };
    secondaryServer.fallback = { kind: 'garbage' };

    const result = await buildChain().embed(['circuit breaker']);

    expect([result.provider, result.model]).toEqual(['local', 'local-hash-v1-384']);
    expect(result.vectors[0]).toEqual(local.embedOne('circuit breaker'));
    expect(secondaryServer.requests).toHaveLength(1);
  });

  it('throws 503 BRAIN_EMBEDDING_UNAVAILABLE when every provider fails', async () => {
    primaryServer.fallback = { kind: 'status', status: 401 };
    secondaryServer.fallback = { kind: 'status', status: 401 };

    const error = await buildChain({ withLocal: false })
      .embed(['x'])
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnavailableError);
    expect([(error as UnavailableError).status, (error as UnavailableError).code]).toEqual([
      503,
      'BRAIN_EMBEDDING_UNAVAILABLE',
    ]);
    expect(primaryServer.requests).toHaveLength(1);
  });

  it('re-embeds every batch with the next provider if a later batch fails, so results never mix models', async () => {
    primaryServer.script = [{ kind: 'ok' }, { kind: 'status', status: 400 }];

    const result = await buildChain({ batchSize: 2 }).embed(['a', 'b', 'c', 'd', 'e']);

    expect(result.provider).toBe(ids.secondary);
    expect(result.vectors).toEqual(['a', 'b', 'c', 'd', 'e'].map((t) => fakeVector(t, 3)));
    expect(secondaryServer.requests.map((r) => r.input)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('embeds a query only with a model whose space the corpus has', async () => {
    const chain = buildChain();

    const query = await chain.embedQuery('breaker', ['local-hash-v1-384', 'm-secondary']);

    expect([query.provider, query.model, query.vector]).toEqual([
      ids.secondary,
      'm-secondary',
      fakeVector('breaker', 3),
    ]);
    expect(primaryServer.requests).toHaveLength(0);
  });

  it('refuses a query when no provider serves the corpus spaces', async () => {
    const error = await buildChain()
      .embedQuery('x', ['other-model'])
      .catch((e: unknown) => e);

    expect((error as UnavailableError).code).toBe('BRAIN_NO_EMBEDDING_MODEL');
  });

  it('lists one vector space per distinct model in chain order', () => {
    expect(buildChain().spaces()).toEqual([
      { model: 'm-primary', dimensions: 4 },
      { model: 'm-secondary', dimensions: 3 },
      { model: 'local-hash-v1-384', dimensions: 384 },
    ]);
  });
});
