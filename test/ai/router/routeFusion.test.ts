import type { Reranker } from '../../../ai/rerank/offlineReranker';
import { AdaptiveRouter } from '../../../ai/router/adaptiveRouter';
import { bestRanks, fuseRoute, type RouteAnchor, type RouteList } from '../../../ai/router/routeFusion';
import type { Hit, SearchStrategy, StrategyName } from '../../../ai/retrieval/hit';
import { buildHit } from '../factories';

/** A list of hits, one per document named, in that order. */
const listOf = (strategy: StrategyName, documents: string[], weight = 1): RouteList => ({
  strategy,
  weight,
  hits: documents.map((d) => buildHit({ chunkId: `${d}#1`, documentId: d, strategy, foundBy: [strategy] })),
});
const ids = (hits: readonly Hit[]) => hits.map((h) => h.documentId);
const anchor = (overrides: Partial<RouteAnchor> = {}): RouteAnchor => ({
  strategy: 'hybrid',
  weight: 1,
  agreeK: 3,
  minShared: 1,
  ...overrides,
});

describe('route fusion with an anchor strategy', () => {
  it('fuses the anchor list with the plan: a document both rank beats one only the plan ranks first', () => {
    const fused = fuseRoute(
      [listOf('hyde', ['a', 'b', 'c']), listOf('hybrid', ['b', 'd', 'e'])],
      60,
      10,
      anchor(),
    );

    expect(fused.fellBack).toBe(false);
    expect(fused.shared).toBe(1);
    expect(ids(fused.hits)[0]).toBe('b');
    expect(new Set(ids(fused.hits))).toEqual(new Set(['a', 'b', 'c', 'd', 'e']));
  });

  it('falls back to the anchor alone when the plan shares too few of its first documents', () => {
    const fused = fuseRoute(
      [listOf('hyde', ['a', 'b', 'c']), listOf('hybrid', ['x', 'y', 'z'])],
      60,
      10,
      anchor({ minShared: 1 }),
    );

    expect(fused).toMatchObject({ fellBack: true, shared: 0 });
    expect(ids(fused.hits)).toEqual(['x', 'y', 'z']);
  });

  it('weighs the anchor list by its weight times the route weight', () => {
    const lists = [listOf('hyde', ['a', 'b']), listOf('hybrid', ['b', 'a'], 1)];
    expect(ids(fuseRoute(lists, 60, 10, anchor({ weight: 3, minShared: 0 })).hits)[0]).toBe('b');
    expect(ids(fuseRoute(lists, 60, 10, anchor({ weight: 0.5, minShared: 0 })).hits)[0]).toBe('a');
  });

  it('is plain weighted fusion without an anchor, or when the anchor list is missing', () => {
    const lists = [listOf('fulltext', ['a', 'b']), listOf('semantic', ['b', 'c'])];
    expect(ids(fuseRoute(lists, 60, 10).hits)).toEqual(['b', 'a', 'c']);
    expect(fuseRoute(lists, 60, 10, anchor()).fellBack).toBe(false);
    expect(ids(fuseRoute([listOf('hyde', ['a', 'b'])], 60, 1).hits)).toEqual(['a']);
  });
});

describe('adaptive router with an anchor', () => {
  const keepOrder: Reranker = async (_q, hits, limit) => hits.slice(0, limit);
  const strategies = (lists: Partial<Record<StrategyName, string[]>>) =>
    Object.fromEntries(
      Object.entries(lists).map(([name, documents]) => [
        name,
        (async () => listOf(name as StrategyName, documents!).hits) as SearchStrategy,
      ]),
    ) as Partial<Record<StrategyName, SearchStrategy>>;
  const question = 'How long is a lantern kept lit before it is refilled?';

  it('adds the anchor to an auto route, reports the agreement, and leaves named strategies alone', async () => {
    const router = new AdaptiveRouter(
      strategies({ hyde: ['a', 'b', 'c'], hybrid: ['b', 'c', 'd'] }),
      keepOrder,
      {
        anchor: { ...anchor({ minShared: 1 }), classes: ['FACTUAL'] },
      },
    );

    const auto = await router.search(question, { limit: 5 });
    const named = await router.search(question, { strategy: 'hyde', limit: 5 });

    expect(auto.route.strategies).toEqual(['hyde', 'hybrid']);
    expect(auto.route.reason).toContain('fused with hybrid');
    expect(auto.agreement).toBeCloseTo(2 / 3);
    expect(ids(auto.hits).slice(0, 2)).toEqual(['b', 'c']);
    expect(named.route.strategies).toEqual(['hyde']);
    expect(named.agreement).toBeUndefined();
    expect(ids(named.hits)).toEqual(['a', 'b', 'c']);
  });

  it("answers with the anchor's list when the class's strategies disagree with it, and says so", async () => {
    const router = new AdaptiveRouter(
      strategies({ hyde: ['a', 'b', 'c'], hybrid: ['x', 'y', 'z'] }),
      keepOrder,
      {
        anchor: { ...anchor({ minShared: 1 }), classes: ['FACTUAL'] },
      },
    );

    const { hits, route, agreement } = await router.search(question, { limit: 5 });

    expect(ids(hits)).toEqual(['x', 'y', 'z']);
    expect(route.reason).toContain('disagreed with hybrid');
    expect(agreement).toBe(0);
  });

  it('leaves the classes it is not configured for on their own plan (a keyword lookup stays fulltext)', async () => {
    const router = new AdaptiveRouter(strategies({ fulltext: ['a'], hybrid: ['x'] }), keepOrder, {
      anchor: { ...anchor(), classes: ['FACTUAL'] },
    });

    const { route, hits } = await router.search('lanternOil', { limit: 5 });

    expect(route).toMatchObject({ class: 'SIMPLE', strategies: ['fulltext'] });
    expect(ids(hits)).toEqual(['a']);
  });

  it('multiplies the plan weights by the calibrated ones', () => {
    const router = new AdaptiveRouter(strategies({ hyde: [], hybrid: [] }), keepOrder, {
      anchor: { ...anchor(), classes: ['FACTUAL'] },
      calibration: () => ({ hyde: 0.5, hybrid: 1 }),
    });

    const route = router.plan(question);

    expect(route.weights).toEqual({ hyde: 0.5, hybrid: 1 });
    expect(route.reason).toContain('weights calibrated on the index');
  });

  it('anchors on the strategy the index chose, once it has chosen, and says so', async () => {
    const choice: { strategy?: StrategyName } = {};
    const router = new AdaptiveRouter(
      strategies({ hyde: ['a', 'b'], hybrid: ['x', 'y'], fulltext: ['b', 'z'] }),
      keepOrder,
      {
        anchor: { ...anchor({ minShared: 0, weight: 2 }), classes: ['FACTUAL'] },
        anchorChoice: () => choice.strategy,
      },
    );

    const before = await router.search(question, { limit: 5 });
    expect(before.route).toMatchObject({ strategies: ['hyde', 'hybrid'], anchor: 'hybrid' });
    expect(before.route.reason).toContain('not yet calibrated');

    choice.strategy = 'fulltext';
    const after = await router.search(question, { limit: 5 });
    expect(after.route).toMatchObject({ strategies: ['hyde', 'fulltext'], anchor: 'fulltext' });
    expect(after.route.reason).toContain('anchor fulltext chosen on the index');
    // b: hyde's second, the doubled anchor's first.
    expect(ids(after.hits)[0]).toBe('b');
  });
});

describe("the rank prior of a fused route's candidates", () => {
  const lists = [listOf('hyde', ['a', 'b', 'c'], 1), listOf('hybrid', ['b', 'c', 'd'], 2)];
  const fused = ['b', 'c', 'd', 'a'].map((d) =>
    lists.flatMap((l) => l.hits).find((h) => h.documentId === d)!,
  );

  it('gives each candidate its best rank in any list, never worse than its fused position', () => {
    expect(bestRanks(fused, lists, 'best', 10)).toEqual([1, 2, 3, 1]);
  });

  it("scales a lighter list's ranks by the heaviest weight over its weight", () => {
    // a: hyde's first at half the heaviest weight counts as rank 2; d: hybrid's third.
    expect(bestRanks(fused, lists, 'weighted', 10)).toEqual([1, 2, 3, 2]);
  });

  it("turns the weighted mean of the lists' priors back into a rank", () => {
    const a = bestRanks(fused, lists, 'mean', 10)[3];
    // a: hyde's 1st (weight 1), not in hybrid's (weight 2: rank depth + 1): prior (1 + 2/√11) / 3.
    expect(a).toBeCloseTo(1 / ((1 + 2 / Math.sqrt(11)) / 3) ** 2);
    // A candidate joined at fused position 1 (a cited section, in no list) keeps that position.
    expect(bestRanks([buildHit({ chunkId: 'z#1' })], lists, 'mean', 10)).toEqual([1]);
  });

  it('passes the weighted ranks to the reranker of an auto route, and none by default or for a named strategy', async () => {
    const seen: (readonly number[] | undefined)[] = [];
    const recording: Reranker = async (_q, hits, limit, ranks) => {
      seen.push(ranks);
      return hits.slice(0, limit);
    };
    const strategies = {
      hyde: (async () => lists[0].hits) as SearchStrategy,
      hybrid: (async () => lists[1].hits.map((h) => ({ ...h }))) as SearchStrategy,
    };
    const options = { anchor: { ...anchor({ weight: 2, minShared: 0 }), classes: ['FACTUAL' as const] } };
    const question = 'Which lantern burns longest in the crypt?';

    await new AdaptiveRouter(strategies, recording, { ...options, prior: 'weighted' }).search(question);
    await new AdaptiveRouter(strategies, recording, options).search(question);
    await new AdaptiveRouter(strategies, recording, { ...options, prior: 'weighted' }).search(question, {
      strategy: 'hyde',
    });

    // Fused b, c, d, a (RRF k 60, hybrid at weight 2); a is hyde's first at half hybrid's weight.
    expect(seen).toEqual([[1, 2, 3, 2], undefined, undefined]);
  });
});
