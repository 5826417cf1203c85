import type { ConfidenceModel } from '../../../ai/answer/answerConfidence';
import { ABSTENTION, QuestionAnswerer } from '../../../ai/answer/questionAnswerer';
import { ExtractiveGenerator } from '../../../ai/llm/extractiveGenerator';
import { GenerationChain } from '../../../ai/llm/generationChain';
import type { AdaptiveRouter, RoutedHits } from '../../../ai/router/adaptiveRouter';
import type { Hit } from '../../../ai/retrieval/hit';
import { buildHit } from '../factories';

const passages: Hit[] = [
  buildHit({
    chunkId: 'fees',
    source: 'docs/economy.md',
    title: 'Economy › Fees',
    text: 'Creators receive 95% of every sale. The platform keeps a fee of 5% on each sale.',
    score: 0.9,
  }),
  buildHit({
    chunkId: 'weather',
    source: 'docs/weather.md',
    title: 'Weather',
    text: 'Rain falls on the northern hills every third day.',
    score: 0.4,
  }),
];

/** A router that answers the passages with the given agreement between its strategies. */
const routerWith = (agreement: number | undefined, hits: Hit[] = passages) =>
  ({
    search: async (): Promise<RoutedHits> => ({
      route: { class: 'FACTUAL', strategies: ['hyde', 'hybrid'], reason: 'test', reranked: true },
      hits,
      degraded: false,
      ...(agreement === undefined ? {} : { agreement }),
    }),
  }) as unknown as AdaptiveRouter;

const answererWith = (router: AdaptiveRouter, confidence: ConfidenceModel) =>
  new QuestionAnswerer(
    {
      router,
      generation: new GenerationChain({ providers: [], offline: new ExtractiveGenerator() }),
      idf: () => 1,
    },
    { confidence },
  );

const question = 'What fee does the platform keep on each sale?';

describe('QuestionAnswerer: extractive answers, citations and calibrated abstention', () => {
  it('answers with the sentence that states the fact, citing the passage it comes from', async () => {
    const model: ConfidenceModel = { bias: -1, sentence: 4, top: 0, threshold: 0.5 };

    const result = await answererWith(routerWith(undefined), model).ask({ question });

    expect(result.grounded).toBe(true);
    expect(result.answer).toContain('The platform keeps a fee of 5% on each sale. [1]');
    expect(result.citations[0]).toMatchObject({ n: 1, chunkId: 'fees', source: 'docs/economy.md' });
    expect(result.evidence).toMatchObject({ names: 0, agreement: 1, top: 0.9 });
  });

  it("abstains when the strategies' agreement pulls the confidence below the threshold, answers when they agree", async () => {
    const model: ConfidenceModel = { bias: -3, sentence: 2, top: 0, agreement: 2, threshold: 0.5 };

    const agreeing = await answererWith(routerWith(0.8), model).ask({ question });
    const disagreeing = await answererWith(routerWith(0.1), model).ask({ question });

    expect(agreeing.grounded).toBe(true);
    expect(disagreeing).toMatchObject({ grounded: false, answer: ABSTENTION, citations: [] });
    expect(disagreeing.evidence?.agreement).toBe(0.1);
  });

  it('abstains when no passage shares the words of the question', async () => {
    const model: ConfidenceModel = { bias: -1, sentence: 4, top: 0, threshold: 0.5 };

    const result = await answererWith(routerWith(1, [passages[1]]), model).ask({ question });

    expect(result).toMatchObject({ grounded: false, answer: ABSTENTION });
  });
});
