import {
  pseudoQueries,
  RouterCalibrator,
  strategyMrr,
  weightsFromMrr,
} from '../../../ai/router/routerCalibration';
import type { SearchStrategy, StrategyName } from '../../../ai/retrieval/hit';
import { buildChunk, buildHit } from '../factories';

const chunks = [
  buildChunk({
    source: 'docs/lanterns.md',
    text: 'Every lantern in the harbour district burns whale oil and must be refilled by the night watch.',
  }),
  buildChunk({
    source: 'docs/bridges.md',
    text: 'The northern drawbridge opens twice a day so that merchant barges can reach the grain market.',
  }),
  buildChunk({ source: 'src/code.ts', text: 'const x = compute(a, b);' }),
  buildChunk({ source: 'docs/short.md', text: 'Too short.' }),
];
/** Rare words: the ones a paraphrase would not repeat. */
const idf = (term: string) =>
  ['whale', 'harbour', 'drawbridge', 'barg'].some((r) => term.startsWith(r)) ? 5 : 1;

describe('pseudo-queries made from the index', () => {
  it("makes one query a document from a prose sentence, leaving out its rarest words, answered by the chunk's document", () => {
    const queries = pseudoQueries(chunks, idf, { dropRarest: 2 });

    expect(queries).toHaveLength(2);
    const lantern = queries.find((q) => q.documentId === chunks[0].documentId)!;
    expect(lantern.query).toContain('lantern');
    expect(lantern.query).not.toMatch(/whale|harbour/);
    expect(queries.map((q) => q.documentId)).not.toContain(chunks[2].documentId);
  });

  it('is the same for the same corpus whatever order the chunks come in', () => {
    expect(pseudoQueries([...chunks].reverse(), idf)).toEqual(pseudoQueries(chunks, idf));
  });
});

describe('strategy weights measured on pseudo-queries', () => {
  const queries = [
    { query: 'lantern refilled night watch', documentId: 'lanterns' },
    { query: 'drawbridge opens merchant', documentId: 'bridges' },
  ];
  /** A strategy ranking the right document at `rank` (1-based), or missing it. */
  const rankingAt =
    (rank: number | undefined): SearchStrategy =>
    async (query) => {
      const answer = queries.find((q) => q.query === query)!.documentId;
      const others = ['x', 'y', 'z'].map((d) => buildHit({ documentId: d }));
      if (rank === undefined) return others;
      others.splice(rank - 1, 0, buildHit({ documentId: answer }));
      return others;
    };

  it("scores each strategy by the reciprocal rank of the pseudo-query's document", async () => {
    const strategies: Partial<Record<StrategyName, SearchStrategy>> = {
      fulltext: rankingAt(1),
      semantic: rankingAt(2),
      hyde: rankingAt(undefined),
    };

    const mrr = await strategyMrr(queries, strategies, ['fulltext', 'semantic', 'hyde', 'graph']);

    expect(mrr).toEqual({ fulltext: 1, semantic: 0.5, hyde: 0 });
  });

  it('weighs each strategy by its MRR over the best, never below the floor', () => {
    expect(weightsFromMrr({ fulltext: 0.8, semantic: 0.4, hyde: 0 }, 0.25)).toEqual({
      fulltext: 1,
      semantic: 0.5,
      hyde: 0.25,
    });
    expect(weightsFromMrr({ fulltext: 0, hyde: 0 })).toEqual({ fulltext: 1, hyde: 1 });
  });

  it('calibrator: no weights before the first calibration, then the measured ones; again after a change', async () => {
    let good: StrategyName = 'fulltext';
    const byName =
      (name: StrategyName): SearchStrategy =>
      async (query, options) =>
        rankingAt(name === good ? 1 : undefined)(query, options);
    const calibrator = new RouterCalibrator({
      chunks: () => chunks,
      idf,
      strategies: { fulltext: byName('fulltext'), semantic: byName('semantic') },
      names: ['fulltext', 'semantic'],
      quietMs: 5,
    });
    // The fixture's pseudo-queries are made from `chunks`; answer them by the same lookup as `queries`.
    queries.splice(0, queries.length, ...pseudoQueries(chunks, idf));

    expect(calibrator.weights()).toBeUndefined();
    await calibrator.calibrate();
    expect(calibrator.weights()).toEqual({ fulltext: 1, semantic: 0.25 });

    good = 'semantic';
    calibrator.changed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await calibrator.calibrate();
    expect(calibrator.weights()).toEqual({ fulltext: 0.25, semantic: 1 });
    calibrator.dispose();
  });
});
