import request from 'supertest';
import { QuestionAnswerer } from '../../../ai/answer/questionAnswerer';
import { startBrainPlatform, SERVICE_TOKEN, type BrainTestPlatform } from './brainPlatform';
import { V2_CORPUS } from './v2Corpus';

describe('POST /brain/ask offline (extractive answers, citations, abstention)', () => {
  let brain: BrainTestPlatform;
  const ask = (body: object) =>
    request(brain.url).post('/brain/ask').set('Authorization', `Bearer ${SERVICE_TOKEN}`).send(body);

  beforeAll(async () => {
    brain = await startBrainPlatform();
    await brain.ingest(V2_CORPUS).expect(200);
  });
  afterAll(() => brain?.stop());

  it('answers with the best sentences, each citing a passage that exists', async () => {
    const res = await ask({ question: 'What fee does the platform keep on a sale?' }).expect(200);

    expect(res.body).toMatchObject({ grounded: true, model: 'extractive-textrank-v1', degraded: false });
    expect(res.body.answer).toContain('the platform keeps a fee of 5%. [1]');
    const cited = [...res.body.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(new Set(cited)).toEqual(new Set(res.body.citations.map((c: { n: number }) => c.n)));
    expect(res.body.citations[0]).toMatchObject({
      n: 1,
      chunk_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      source: 'docs/economy.md',
      title: 'Economy › Fees',
      start_line: 7,
      end_line: 9,
      quote: expect.stringContaining('the platform keeps a fee of 5%'),
    });
    expect(res.body.route).toMatchObject({ class: 'FACTUAL' });
  });

  it('abstains when the documents do not hold the answer', async () => {
    const res = await ask({ question: 'Which wizard guards the northern volcano?' }).expect(200);

    expect(res.body).toMatchObject({
      answer: 'The indexed documents do not say.',
      citations: [],
      grounded: false,
    });
    expect(await brain.metric('brain_ask_total', { outcome: 'abstained' })).toBeGreaterThanOrEqual(1);
  });

  it('abstains when the question names something no retrieved passage mentions', async () => {
    // "fee ... keep on a sale" matches the economy document as well as the answerable question above does.
    const res = await ask({ question: 'What fee does the Zorbon guild keep on a sale?' }).expect(200);

    expect(res.body).toMatchObject({
      answer: 'The indexed documents do not say.',
      citations: [],
      grounded: false,
    });
  });

  it('requires authentication', async () => {
    const res = await request(brain.url).post('/brain/ask').send({ question: 'fee?' }).expect(401);

    expect(res.body.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    [{}, 'body.question'],
    [{ question: '   ' }, 'body.question'],
    [{ question: 'fee?', max_context_tokens: 10 }, 'body.max_context_tokens'],
    [{ question: 'fee?', strategy: 'oracle' }, 'body.strategy'],
  ])('rejects %j with 400 VALIDATION_FAILED', async (body, path) => {
    const res = await ask(body).expect(400);

    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});

describe('POST /brain/ask with BRAIN_ASK_SIMILARITY=neural (the sentence encoder weighs in)', () => {
  let brain: BrainTestPlatform;
  const ask = (body: object) =>
    request(brain.url).post('/brain/ask').set('Authorization', `Bearer ${SERVICE_TOKEN}`).send(body);
  const asked = jest.spyOn(QuestionAnswerer.prototype, 'ask');

  beforeAll(async () => {
    brain = await startBrainPlatform({ BRAIN_ASK_SIMILARITY: 'neural' });
    await brain.ingest(V2_CORPUS).expect(200);
  });
  afterAll(async () => {
    asked.mockRestore();
    await brain?.stop();
  });

  it("answers with the same citation contract, its decision resting on the encoder's similarity", async () => {
    const res = await ask({ question: 'What fee does the platform keep on a sale?' }).expect(200);

    expect(res.body).toMatchObject({ grounded: true, model: 'extractive-textrank-v1' });
    expect(res.body.citations[0]).toMatchObject({ n: 1, source: 'docs/economy.md' });
    const result = await asked.mock.results.at(-1)!.value;
    expect(result.evidence.similarity).toBeGreaterThan(0.3);
  });

  it('still abstains when the documents do not hold the answer', async () => {
    const res = await ask({ question: 'Which wizard guards the northern volcano?' }).expect(200);

    expect(res.body).toMatchObject({ grounded: false, citations: [] });
  });
});
