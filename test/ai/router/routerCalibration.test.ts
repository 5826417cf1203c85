import {
  headingQuestion,
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

describe('harder, question-like pseudo-queries', () => {
  const section = (source: string, heading: string, text: string) =>
    buildChunk({ source, title: source, headingPath: [source, heading], text });
  const corpus = [
    section(
      'docs/logging.md',
      'Configuring the logger',
      'The logger writes one line per request. Every request line names the route, the status and the time it took.',
    ),
    section(
      'docs/routes.md',
      'Declaring routes',
      'Routes map a path to a handler. Every route names its path, its method and the handler that answers it.',
    ),
    section(
      'docs/hooks.md',
      'Hooks',
      'Hooks run around a request. Every hook sees the request line, the route and the time the handler took.',
    ),
    section(
      'docs/a.md',
      'Usage',
      'A page whose heading another page uses as well, and no prose worth asking.',
    ),
    section(
      'docs/b.md',
      'Usage',
      'Another page with the same generic heading and nothing else to ask about.',
    ),
  ];
  const df = (term: string) => corpus.filter((c) => c.text.toLowerCase().includes(term)).length;
  const stats = {
    idf: (term: string) => Math.log(1 + corpus.length / (1 + df(term))),
    documentFrequency: df,
  };

  it('asks a heading as a question: a gerund as "how do I", anything else as "what is"', () => {
    expect(headingQuestion('Configuring the logger')).toBe('how do I configur the logger');
    expect(headingQuestion('Running `nu` scripts')).toBe('how do I run nu scripts');
    expect(headingQuestion('Hooks')).toBe('what is hooks');
    expect(headingQuestion('How does routing work?')).toBe('how does routing work');
    expect(headingQuestion('String methods')).toBe('what is string methods');
    expect(headingQuestion('Using plugins')).toBe('how do I use plugins');
    expect(headingQuestion('Adding a route')).toBe('how do I add a route');
    expect(headingQuestion('the')).toBeUndefined();
  });

  it('heading: one question a document, leaving out headings more than one document uses', () => {
    const queries = pseudoQueries(corpus, stats, { kind: 'heading' });

    expect(queries.map((q) => q.query).sort()).toEqual([
      'how do I configur the logger',
      'how do I declar routes',
      'what is hooks',
    ]);
    const logger = queries.find((q) => q.query.includes('logger'))!;
    expect(logger.documentId).toBe(corpus[0].documentId);
  });

  it("common: the chunk's second prose sentence, keeping only words other chunks use too", () => {
    const queries = pseudoQueries(corpus, stats, { kind: 'common', minChunks: 2, dropRarest: 0 });
    const logging = queries.find((q) => q.documentId === corpus[0].documentId)!;

    // "names", "route", "time" and "request" occur in other chunks; "status" only in this one.
    expect(logging.query.split(' ')).toEqual(expect.arrayContaining(['request', 'route', 'time']));
    expect(logging.query).not.toContain('status');
    expect(logging.query).not.toContain('logger');
  });

  it('mixed: half heading questions, half common-word sentences, each document at most once', () => {
    const queries = pseudoQueries(corpus, stats, { kind: 'mixed', queries: 4, minChunks: 2, dropRarest: 0 });

    expect(queries.filter((q) => /^(how do I|what is)/.test(q.query))).toHaveLength(2);
    expect(new Set(queries.map((q) => q.documentId)).size).toBe(queries.length);
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
    expect(calibrator.strongest(['fulltext', 'semantic'])).toBeUndefined();
    await calibrator.calibrate();
    expect(calibrator.weights()).toEqual({ fulltext: 1, semantic: 0.25 });

    good = 'semantic';
    calibrator.changed();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await calibrator.calibrate();
    expect(calibrator.weights()).toEqual({ fulltext: 0.25, semantic: 1 });
    // The anchor candidate strongest on the pseudo-queries; unmeasured candidates are passed over.
    expect(calibrator.strongest(['hybrid', 'fulltext', 'semantic'])).toBe('semantic');
    calibrator.dispose();
  });
});
