import type { ConfidenceModel } from '../../../ai/answer/answerConfidence';
import { ABSTENTION, QuestionAnswerer, type SentenceSimilarity } from '../../../ai/answer/questionAnswerer';
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

const answererWith = (
  router: AdaptiveRouter,
  confidence: ConfidenceModel,
  similarity?: SentenceSimilarity,
  lexicalConfidence: ConfidenceModel = confidence,
  documentFrequency?: (term: string) => number,
) =>
  new QuestionAnswerer(
    {
      router,
      generation: new GenerationChain({ providers: [], offline: new ExtractiveGenerator() }),
      idf: () => 1,
      documentFrequency,
      similarity,
    },
    { confidence, lexicalConfidence },
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

  it("weighs the encoder's similarity of the question to the answer's own sentences", async () => {
    const model: ConfidenceModel = { bias: -3, sentence: 0, top: 0, similarity: 4, threshold: 0.5 };
    const asked: string[][] = [];
    const similarTo =
      (cosine: number): SentenceSimilarity =>
      async (_question, sentences) => {
        asked.push([...sentences]);
        return sentences.map((_, i) => (i === 0 ? cosine : 0.1));
      };

    const close = await answererWith(routerWith(1), model, similarTo(0.9)).ask({ question });
    const far = await answererWith(routerWith(1), model, similarTo(0.5)).ask({ question });

    expect(asked[0]).toContain('The platform keeps a fee of 5% on each sale.');
    expect(close).toMatchObject({ grounded: true, evidence: { similarity: 0.9 } });
    expect(far).toMatchObject({ grounded: false, answer: ABSTENTION, evidence: { similarity: 0.5 } });
  });

  it('counts the question terms no chunk of the corpus holds, and abstains on them when the model weighs them', async () => {
    const model: ConfidenceModel = { bias: -1, sentence: 4, top: 0, unseen: -4, threshold: 0.5 };
    const corpusTerms = new Set(['fee', 'platform', 'keep', 'sale']);
    const documentFrequency = (term: string) => (corpusTerms.has(term) ? 3 : 0);
    const asked = 'What fee does the platform keep on each sale for telemetry?';

    const covered = await answererWith(routerWith(1), model, undefined, model, documentFrequency).ask({
      question,
    });
    const uncovered = await answererWith(routerWith(1), model, undefined, model, documentFrequency).ask({
      question: asked,
    });
    const uncounted = await answererWith(routerWith(1), model).ask({ question: asked });

    expect(covered).toMatchObject({ grounded: true, evidence: { unseen: 0 } });
    expect(uncovered).toMatchObject({ grounded: false, answer: ABSTENTION, evidence: { unseen: 1 } });
    expect(uncounted.evidence?.unseen).toBe(0);
  });

  it('decides with the lexical model when the encoder fails', async () => {
    const neural: ConfidenceModel = { bias: -3, sentence: 0, top: 0, similarity: 4, threshold: 0.5 };
    const lexical: ConfidenceModel = { bias: -1, sentence: 4, top: 0, threshold: 0.5 };
    const failing: SentenceSimilarity = async () => {
      throw new Error('encoder thread gone');
    };

    const result = await answererWith(routerWith(1), neural, failing, lexical).ask({ question });

    expect(result.grounded).toBe(true);
    expect(result.evidence?.similarity).toBeUndefined();
  });

  it('abstains when no passage shares the words of the question', async () => {
    const model: ConfidenceModel = { bias: -1, sentence: 4, top: 0, threshold: 0.5 };

    const result = await answererWith(routerWith(1, [passages[1]]), model).ask({ question });

    expect(result).toMatchObject({ grounded: false, answer: ABSTENTION });
  });
});
