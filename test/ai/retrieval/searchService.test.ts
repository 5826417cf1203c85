import { SearchCache } from '../../../ai/cache/searchCache';
import type { SearchStrategy } from '../../../ai/retrieval/hit';
import { SearchService } from '../../../ai/retrieval/searchService';
import { BlankQueryError } from '../../../ai/retrieval/blankQueryError';
import { searchTotal } from '../../../platform/metrics';
import { metricValue } from '../embeddings/metricValue';
import { buildHit } from '../factories';

describe('SearchService', () => {
  function buildService() {
    const fulltext = jest.fn<ReturnType<SearchStrategy>, Parameters<SearchStrategy>>(async () => [
      buildHit(),
    ]);
    const unused: SearchStrategy = async () => [];
    const service = new SearchService({ fulltext, semantic: unused, hybrid: unused }, new SearchCache());
    return { service, fulltext };
  }

  it('runs the chosen strategy once and serves the repeat from the cache', async () => {
    const { service, fulltext } = buildService();
    const before = await metricValue(searchTotal, { strategy: 'fulltext', index: 'code+docs' });

    const first = await service.search({
      query: 'Breaker',
      strategy: 'fulltext',
      indexes: ['docs', 'code'],
      limit: 3,
    });
    const second = await service.search({
      query: 'breaker ',
      strategy: 'fulltext',
      indexes: ['code', 'docs'],
      limit: 3,
    });

    expect(fulltext).toHaveBeenCalledTimes(1);
    expect(fulltext).toHaveBeenCalledWith('Breaker', {
      indexes: ['docs', 'code'],
      limit: 3,
      onPartialFailure: expect.any(Function),
    });
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second.hits).toEqual([buildHit()]);
    expect(service.queryCounts()).toEqual({ fulltext: 2, semantic: 0, hybrid: 0 });
    expect(await metricValue(searchTotal, { strategy: 'fulltext', index: 'code+docs' })).toBe(before + 2);
  });

  it('marks an answer degraded when part of the search failed, and does not cache it', async () => {
    const partial: SearchStrategy = async (_query, options) => {
      options?.onPartialFailure?.(new Error('semantic side down'));
      return [buildHit()];
    };
    const unused: SearchStrategy = async () => [];
    const service = new SearchService(
      { fulltext: unused, semantic: unused, hybrid: partial },
      new SearchCache(),
    );

    const first = await service.search({ query: 'breaker', strategy: 'hybrid' });
    const second = await service.search({ query: 'breaker', strategy: 'hybrid' });

    expect([first.degraded, first.cached, second.degraded, second.cached]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(second.hits).toEqual([buildHit()]);
  });

  it('rejects a blank query with its own error naming the field (the brain maps it to BRAIN_QUERY_EMPTY)', async () => {
    const error = await buildService()
      .service.search({ query: '   ' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BlankQueryError);
    expect([(error as BlankQueryError).field, (error as BlankQueryError).reason]).toEqual(['query', 'blank']);
  });
});
