import {
  ENCODED_CHARACTERS,
  SENTENCE_ENCODER_MODEL,
  SentenceEncoder,
  encodedPart,
} from '../../../ai/embeddings/sentenceEncoder';
import encodeInWorker from '../../../ai/embeddings/sentenceEncoderWorker';
import { cosine } from '../../../ai/memory/recallScoring';

describe('SentenceEncoder (use-lite-v1-512)', () => {
  const encoder = new SentenceEncoder({ batchSize: 4 });
  afterAll(() => encoder.close());

  it('names its own 512-dimensional space and answers unit vectors in order, across batches', async () => {
    expect([encoder.model, encoder.dimensions]).toEqual([SENTENCE_ENCODER_MODEL, 512]);
    const texts = ['My favourite drink is a cortado with oat milk.', 'what coffee do I like?'];
    const many = Array.from({ length: 9 }, (_, i) => `Sentence ${i} about the old mill.`);
    const vectors = await encoder.embed([...texts, ...many]);
    expect(vectors).toHaveLength(11);
    for (const vector of vectors) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
    }
    // A paraphrase sits nearer its statement than an unrelated sentence does.
    const [unrelated] = await encoder.embed(['I keep my spare sword in the chapel crypt.']);
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(cosine(unrelated, vectors[1]) + 0.3);
    expect(encoder.loadMs).toBeGreaterThan(0);
  });

  it('answers a repeated text from its cache with the same vector', async () => {
    const [first] = await encoder.embed(['where did I hide my extra blade?']);
    const [again] = await encoder.embed(['where did I hide my extra blade?']);
    expect(again).toBe(first);
  });

  it('embeds texts that differ only in their opaque identifiers once, with one vector', async () => {
    const pair = (a: string, b: string) =>
      `web:${a} → web:${b}: play_together — fought caves:glowworm together`;
    const [one, other] = await encoder.embed([
      pair('6b0b765cba498e437786c50e', '6b0b765bba498e437786bc16'),
      pair('6b0b765bba498e437786bc16', '6b0b765cba498e437786c50e'),
    ]);
    expect(other).toBe(one);
    const [readable] = await encoder.embed([
      'web:id → web:id: play_together — fought caves:glowworm together',
    ]);
    expect(readable).toBe(one);
  });

  it('answers a query on its own thread, not after a text already being embedded', async () => {
    // Both threads hold the model first, so the order below is the lanes', not the loads'.
    await Promise.all([encoder.embed(['a warm-up text']), encoder.embedQuery('a warm-up query')]);
    // About 950 characters: a task of several hundred milliseconds, started at once on the idle thread.
    const long = `The old mill's ledger ${'lists sacks of grain, barrels of oil and bolts of cloth by the week. '.repeat(14)}`;
    const order: string[] = [];
    const running = encoder.embed([long]).then(() => order.push('text'));
    const query = encoder.embedQuery('where did I hide my spare sword?').then(() => order.push('query'));
    await Promise.all([running, query]);
    expect(order).toEqual(['query', 'text']);
  });

  it('loads the model from the package files: nothing is fetched', async () => {
    const realFetch = globalThis.fetch;
    const fetched: unknown[] = [];
    globalThis.fetch = ((input: unknown) => {
      fetched.push(input);
      return Promise.reject(new Error('no network in this test'));
    }) as typeof fetch;
    try {
      const result = await encodeInWorker({ texts: ['what coffee do I like?'] });
      expect(result.vectors).toHaveLength(512);
      expect(result.loadMs).toBeGreaterThan(0);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(fetched).toEqual([]);
  });

  it('embeds an empty text alone (the model itself throws on one) as a unit vector', async () => {
    const { vectors } = await encodeInWorker({ texts: [''] });
    expect(vectors).toHaveLength(512);
    expect(Math.hypot(...vectors)).toBeCloseTo(1, 4);
  });
});

describe('encodedPart', () => {
  it('keeps short texts whole and cuts long ones at a space within the first 1,000 characters', () => {
    expect(encodedPart('what coffee do I like?')).toBe('what coffee do I like?');
    const long = 'word '.repeat(400);
    const part = encodedPart(long);
    expect(part.length).toBeLessThanOrEqual(ENCODED_CHARACTERS);
    expect(part.length).toBeGreaterThan(ENCODED_CHARACTERS - 6);
    expect(part.endsWith('word')).toBe(true);
  });

  it('reads each opaque identifier as the word id: hex ids and digests, UUIDs, snowflakes', () => {
    expect(encodedPart('web:6b0b765cba498e437786c50e → web:6b0b765bba498e437786bc16: gift')).toBe(
      'web:id → web:id: gift',
    );
    expect(encodedPart('image sha256:' + 'ab12'.repeat(16) + ' pulled')).toBe('image sha256:id pulled');
    expect(encodedPart('session 123e4567-e89b-12d3-a456-426614174000 ended')).toBe('session id ended');
    expect(encodedPart('discord:123456789012345678 joined')).toBe('discord:id joined');
  });

  it('keeps words, short numbers and hex-looking words without a digit', () => {
    const text = 'In 2024 the deadbeefcafebabe flag and commit abc1234 at port 4000 stayed readable.';
    expect(encodedPart(text)).toBe(text);
  });
});
