import request from 'supertest';
import { startFakeChatServer, type FakeChatServer } from '../../ai/llm/fakeChatServer';
import { startBrainPlatform, SERVICE_TOKEN, type BrainTestPlatform } from './brainPlatform';
import { V2_CORPUS } from './v2Corpus';

describe('POST /brain/ask with LLM providers (fake OpenAI-compatible chat servers, injected clock)', () => {
  let primary: FakeChatServer;
  let secondary: FakeChatServer;
  let brain: BrainTestPlatform;
  const ask = (question = 'What fee does the platform keep on a sale?') =>
    request(brain.url)
      .post('/brain/ask')
      .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
      .send({ question, strategy: 'fulltext' })
      .expect(200);

  beforeEach(async () => {
    [primary, secondary] = await Promise.all([
      startFakeChatServer('The platform keeps 5% of a sale [1].'),
      startFakeChatServer('Creators get 95% [1], the rest is the fee [9].'),
    ]);
    brain = await startBrainPlatform({
      BRAIN_LLM_PRIMARY_URL: primary.url,
      BRAIN_LLM_PRIMARY_MODEL: 'fake-llm-primary',
      BRAIN_LLM_PRIMARY_API_KEY: 'llm-primary-key-0123456789',
      BRAIN_LLM_SECONDARY_URL: secondary.url,
      BRAIN_LLM_SECONDARY_MODEL: 'fake-llm-secondary',
      BRAIN_LLM_TIMEOUT_MS: '100',
    });
    await brain.ingest(V2_CORPUS).expect(200);
  });
  afterEach(async () => {
    await brain?.stop();
    await Promise.all([primary?.close(), secondary?.close()]);
  });

  // The questions name the fulltext strategy: HYDE (the FACTUAL route) would also ask the LLMs for a hypothesis.
  const answerRequests = (server: FakeChatServer) =>
    server.requests.filter((r) => r.messages[0].content.startsWith('Answer the question'));
  const primaryState = async () =>
    ((await brain.stats()).generation_providers as { provider: string; state: string }[]).find(
      (p) => p.provider === 'primary',
    )!.state;

  it('answers with the primary LLM from numbered passages, and cites the passage it names', async () => {
    const res = await ask();

    expect(res.body).toMatchObject({
      answer: 'The platform keeps 5% of a sale [1].',
      model: 'fake-llm-primary',
      grounded: true,
    });
    expect(res.body.citations).toEqual([
      expect.objectContaining({ n: 1, source: 'docs/economy.md', title: 'Economy › Fees' }),
    ]);
    const [call] = answerRequests(primary);
    expect(call.authorization).toBe('Bearer llm-primary-key-0123456789');
    expect(call.messages[1].content).toMatch(/^Passages:\n\[1\] Economy › Fees\n/);
  });

  it('retries a failing primary 3 times, then the secondary answers and its unknown [9] is dropped', async () => {
    primary.fallback = { kind: 'status', status: 503 };

    const res = await ask();

    expect(answerRequests(primary)).toHaveLength(3);
    expect(brain.waits).toEqual(expect.arrayContaining([500, 1000]));
    expect(res.body).toMatchObject({
      answer: 'Creators get 95% [1], the rest is the fee.',
      model: 'fake-llm-secondary',
      grounded: true,
    });
    expect(res.body.citations.map((c: { n: number }) => c.n)).toEqual([1]);
  });

  it('falls back to the extractive generator when both LLMs stall past the timeout', async () => {
    primary.fallback = { kind: 'stall' };
    secondary.fallback = { kind: 'garbage' };

    const res = await ask();

    expect(res.body).toMatchObject({ model: 'extractive-textrank-v1', grounded: true });
    expect(res.body.answer).toContain('[1]');
  });

  it('replaces an LLM answer that cites nothing by the extractive one', async () => {
    primary.fallback = { kind: 'ok', content: 'Five percent, trust me.' };

    const res = await ask();

    expect(res.body).toMatchObject({ model: 'extractive-textrank-v1', grounded: true });
    expect(res.body.answer).toContain('the platform keeps a fee of 5%. [1]');
  });

  it('opens the primary circuit after 5 failures and closes it after 3 trial calls 60 s later', async () => {
    primary.fallback = { kind: 'status', status: 500 };
    await ask();
    await ask();
    expect(answerRequests(primary)).toHaveLength(5);
    expect(await primaryState()).toBe('OPEN');

    await ask();
    expect(answerRequests(primary)).toHaveLength(5);

    primary.fallback = { kind: 'ok', content: 'The platform keeps 5% of a sale [1].' };
    brain.clock.advance(60_000);
    expect(await primaryState()).toBe('HALF_OPEN');
    for (let i = 0; i < 3; i++) expect((await ask()).body.model).toBe('fake-llm-primary');
    expect(await primaryState()).toBe('CLOSED');
  });

  it('lets HYDE search with the hypothetical answer of the LLM when one is configured', async () => {
    primary.fallback = {
      kind: 'ok',
      content: 'Creators receive most of a sale and the platform keeps a fee.',
    };

    const res = await request(brain.url)
      .post('/brain/search/v2')
      .send({ query: 'What does the platform take from a sale?', strategy: 'hyde' })
      .expect(200);

    const hypotheses = primary.requests.filter((r) =>
      r.messages[0].content.startsWith('Write one short passage'),
    );
    expect(hypotheses.map((r) => r.messages[1].content)).toEqual([
      'What does the platform take from a sale?',
    ]);
    expect(res.body.hits[0]).toMatchObject({ source: 'docs/economy.md', title: 'Economy › Fees' });
  });
});
