import type { Reranker } from '../../../ai/rerank/offlineReranker';
import { AdaptiveRouter } from '../../../ai/router/adaptiveRouter';
import type { SearchOptions, SearchStrategy, StrategyName } from '../../../ai/retrieval/hit';
import { buildHit } from '../factories';

/** Strategies that answer one hit each and record how many candidates the router asked them for. */
function recordingStrategies(): {
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  asked: Array<[StrategyName, number | undefined]>;
} {
  const asked: Array<[StrategyName, number | undefined]> = [];
  const strategy =
    (name: StrategyName): SearchStrategy =>
    async (_query: string, options: SearchOptions = {}) => {
      asked.push([name, options.limit]);
      return [buildHit({ chunkId: `${name}-1`, documentId: name, strategy: name, foundBy: [name] })];
    };
  const names: StrategyName[] = ['fulltext', 'semantic', 'hybrid', 'hyde', 'graph'];
  return { strategies: Object.fromEntries(names.map((n) => [n, strategy(n)])), asked };
}

/** A reranker that keeps the fused order: these tests are about what the router asks for. */
const rerankKeepingOrder: Reranker = async (_query, hits, limit) => hits.slice(0, limit);

describe('adaptive router: candidate depth of the class plans', () => {
  it('asks HYDE for 200 candidates on a specific question (FACTUAL), whatever the limit below that', async () => {
    const { strategies, asked } = recordingStrategies();
    const router = new AdaptiveRouter(strategies, rerankKeepingOrder);

    const { route } = await router.search('How long is a lantern kept lit before it is refilled?', {
      limit: 10,
    });

    expect(route).toMatchObject({ class: 'FACTUAL', strategies: ['hyde'], reranked: true, depth: 200 });
    expect(asked).toEqual([['hyde', 200]]);
  });

  it('asks fulltext for 50 candidates on a keyword lookup (SIMPLE) and every strategy for 100 on a comparison (COMPLEX)', async () => {
    const { strategies, asked } = recordingStrategies();
    const router = new AdaptiveRouter(strategies, rerankKeepingOrder);

    await router.search('lanternOil', { limit: 10 });
    await router.search('What is the difference between lantern oil and candle wax?', { limit: 10 });

    expect(asked).toEqual([
      ['fulltext', 50],
      ['fulltext', 100],
      ['semantic', 100],
      ['graph', 100],
      ['hyde', 100],
    ]);
  });

  it('never asks for fewer candidates than the hits requested', async () => {
    const { strategies, asked } = recordingStrategies();
    const router = new AdaptiveRouter(strategies, rerankKeepingOrder);

    await router.search('How long is a lantern kept lit before it is refilled?', { limit: 300 });

    expect(asked).toEqual([['hyde', 300]]);
  });
});

describe('adaptive router: the word naming the answer type', () => {
  /** Strategies that record the query they were asked, and a reranker that records its query. */
  function recordingQueries(options: { typeWord?: boolean } = {}) {
    const searched: string[] = [];
    const reranked: string[] = [];
    const strategy: SearchStrategy = async (query) => {
      searched.push(query);
      return [buildHit({ chunkId: 'a', documentId: 'a' })];
    };
    const reranker: Reranker = async (query, hits, limit) => {
      reranked.push(query);
      return hits.slice(0, limit);
    };
    const names: StrategyName[] = ['fulltext', 'semantic', 'hybrid', 'hyde', 'graph'];
    const router = new AdaptiveRouter(Object.fromEntries(names.map((n) => [n, strategy])), reranker, options);
    return { router, searched, reranked };
  }

  it('leaves it out of what an auto route searches, and gives the reranker the whole question', async () => {
    const { router, searched, reranked } = recordingQueries();

    await router.search('Which call refills a lantern with oil?');

    expect(searched).toEqual(['Which refills a lantern with oil?']);
    expect(reranked).toEqual(['Which call refills a lantern with oil?']);
  });

  it('searches the question unchanged when it names no answer type, or when a strategy is named', async () => {
    const { router, searched } = recordingQueries();

    await router.search('Why is lantern oil rationed?');
    await router.search('Which call refills a lantern with oil?', { strategy: 'fulltext' });

    expect(searched).toEqual(['Why is lantern oil rationed?', 'Which call refills a lantern with oil?']);
  });

  it('searches the question as asked when answer types are off (typeWord false, BRAIN_ANSWER_TYPES=0)', async () => {
    const { router, searched } = recordingQueries({ typeWord: false });

    await router.search('Which call refills a lantern with oil?');

    expect(searched).toEqual(['Which call refills a lantern with oil?']);
  });
});

describe('adaptive router: following citations', () => {
  it("hands an auto route's candidates to followCitations before reranking, and a named strategy's not", async () => {
    const followed: string[][] = [];
    const cited = buildHit({ chunkId: 'cited', documentId: 'spec' });
    const strategy: SearchStrategy = async () => [buildHit({ chunkId: 'a', documentId: 'a' })];
    const names: StrategyName[] = ['fulltext', 'semantic', 'hybrid', 'hyde', 'graph'];
    const router = new AdaptiveRouter(
      Object.fromEntries(names.map((n) => [n, strategy])),
      rerankKeepingOrder,
      {
        followCitations: (hits) => {
          followed.push(hits.map((h) => h.chunkId));
          return [...hits, cited];
        },
      },
    );

    const auto = await router.search('Why is lantern oil rationed?');
    const named = await router.search('Why is lantern oil rationed?', { strategy: 'fulltext' });

    expect(followed).toEqual([['a']]);
    expect(auto.hits.map((h) => h.chunkId)).toEqual(['a', 'cited']);
    expect(named.hits.map((h) => h.chunkId)).toEqual(['a']);
  });
});
