import { ENCODED_CHARACTERS } from '../../../ai/embeddings/sentenceEncoder';
import { sentenceSimilarity } from '../../../ai/embeddings/sentenceSimilarity';

/** A fake encoder with unit vectors of two dimensions, keyed by the text's first word. */
const VECTORS: Record<string, number[]> = { coffee: [1, 0], cortado: [0.8, 0.6], rain: [0, 1] };
const seen: string[] = [];
const encoder = {
  embedQuery: async (text: string) => {
    seen.push(text);
    return VECTORS[text.split(' ')[0]];
  },
};

describe('sentenceSimilarity: cosines of a question to sentences through the encoder', () => {
  it('answers the cosine of the question to each sentence, in order', async () => {
    const cosines = await sentenceSimilarity(encoder)('coffee please', [
      'cortado with oat milk',
      'rain today',
    ]);

    expect(cosines[0]).toBeCloseTo(0.8);
    expect(cosines[1]).toBeCloseTo(0);
  });

  it('sends the encoder only the part of a long sentence it reads', async () => {
    seen.length = 0;
    await sentenceSimilarity(encoder)('coffee', [`rain ${'and more '.repeat(400)}`]);

    expect(seen[1].length).toBeLessThanOrEqual(ENCODED_CHARACTERS);
  });
});
