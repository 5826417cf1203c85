import type { Reranker } from '../../../ai/rerank/offlineReranker';
import { AdaptiveRouter } from '../../../ai/router/adaptiveRouter';
import { fuseRoute, type RouteAnchor, type RouteList } from '../../../ai/router/routeFusion';
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
