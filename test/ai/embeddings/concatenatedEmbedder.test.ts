import { ConcatenatedEmbedder } from '../../../ai/embeddings/concatenatedEmbedder';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import {
  documentEmbeddingProvidersFrom,
  embeddingProvidersFrom,
  sentenceEncoderOf,
} from '../../../ai/embeddings/embeddingProviders';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';
import { OfflineEmbedderPool } from '../../../ai/embeddings/offlineEmbedderPool';
import type { EmbeddingProvider } from '../../../ai/embeddings/provider';
import { SentenceEncoder } from '../../../ai/embeddings/sentenceEncoder';
import { loadConfig } from '../../../platform/config';

/** A provider answering fixed vectors by text (not unit length: the space normalises each part). */
function fixed(model: string, vectors: Record<string, number[]>): EmbeddingProvider & { calls: number } {
  return {
    id: model,
    model,
    dimensions: Object.values(vectors)[0].length,
    calls: 0,
    async embed(texts) {
      this.calls++;
      return texts.map((t) => vectors[t]);
    },
  };
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('ConcatenatedEmbedder', () => {
  const words = fixed('words-v1-2', { a: [3, 0], b: [1, 1] });
  const meaning = fixed('meaning-v1-3', { a: [0, 0, 2], b: [0, 2, 0] });

  it('names a space of its own from the parts and their weights, as wide as the parts together', () => {
    const space = new ConcatenatedEmbedder([
      { provider: words, weight: 2 },
      { provider: meaning, weight: 1 },
    ]);
    expect([space.id, space.model, space.dimensions]).toEqual(['local', 'words-v1-2*2+meaning-v1-3*1', 5]);
  });

  it('answers unit vectors whose cosine is the weighted mean of the parts’ cosines', async () => {
    const space = new ConcatenatedEmbedder([
      { provider: words, weight: 3 },
      { provider: meaning, weight: 1 },
    ]);
    const [a, b] = await space.embed(['a', 'b']);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
    expect(Math.hypot(...b)).toBeCloseTo(1, 12);
    // words: cos(a, b) = 1/√2; meaning: 0. Weighted 3 : 1.
    expect(dot(a, b)).toBeCloseTo(0.75 * Math.SQRT1_2, 12);
    expect([words.calls, meaning.calls]).toEqual([1, 1]);
  });

  it('embeds a query on each part’s query path where it has one, and the chain asks for it so', async () => {
    const asked: string[] = [];
    const queried = {
      ...fixed('meaning-v1-3', { a: [0, 0, 2], b: [0, 2, 0] }),
      async embedQuery(text: string) {
        asked.push(text);
        return [0, 0, 5];
      },
    };
    const space = new ConcatenatedEmbedder([
      { provider: words, weight: 1 },
      { provider: queried, weight: 1 },
    ]);
    const chain = new EmbeddingChain({ providers: [space] });
    const { vector, model } = await chain.embedQuery('a', [space.model]);
    expect(model).toBe(space.model);
    expect(asked).toEqual(['a']);
    expect(queried.calls).toBe(0);
    const [stored] = await space.embed(['a']);
    expect(dot(vector, stored)).toBeCloseTo(1, 12);
  });

  it('is the offline embedder of BRAIN_LOCAL_EMBEDDER=fused: WordNet and the sentence encoder, which it shares', () => {
    const config = loadConfig({ BRAIN_LOCAL_EMBEDDER: 'fused', BRAIN_FUSED_SEMANTIC_WEIGHT: '2' });
    const local = embeddingProvidersFrom(config).at(-1) as ConcatenatedEmbedder;
    expect(local).toBeInstanceOf(ConcatenatedEmbedder);
    expect(local.model).toBe('local-sem-v1-384*2+use-lite-v1-512*1');
    expect(local.parts[0].provider).toBeInstanceOf(LocalSemanticEmbedder);
    expect(sentenceEncoderOf(local)).toBe(local.parts[1].provider);
    expect(sentenceEncoderOf(local)).toBeInstanceOf(SentenceEncoder);
    expect(sentenceEncoderOf(new LocalSemanticEmbedder())).toBeUndefined();
    // The documents' chain runs the WordNet part in the offline embedder's threads, in the same space.
    const threaded = loadConfig({ BRAIN_LOCAL_EMBEDDER: 'fused', BRAIN_EMBEDDER_THREADS: '1' });
    const documents = documentEmbeddingProvidersFrom(threaded).at(-1) as ConcatenatedEmbedder;
    expect(documents.parts[0].provider).toBeInstanceOf(OfflineEmbedderPool);
    expect(documents.model).toBe('local-sem-v1-384*2+use-lite-v1-512*1');
  });
});
