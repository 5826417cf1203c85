import type { EmbeddingProvider } from './provider';

/** One embedder of a concatenated space and its share of the cosine. */
export interface EmbedderPart {
  provider: EmbeddingProvider;
  weight: number;
}

/**
 * A vector space made of several embedders' spaces side by side: a text's vector is each part's unit vector scaled
 * by √(its weight / the weights' sum), so the cosine of two such vectors is the weighted mean of the parts' cosines
 * (score fusion of the spaces, in one vector a vector index can search). Its model id names the parts and their
 * weights, so its vectors never meet another space's. The parts embed concurrently (each in its own threads).
 */
export class ConcatenatedEmbedder implements EmbeddingProvider {
  readonly model: string;
  readonly dimensions: number;
  private readonly scales: number[];

  constructor(
    readonly parts: readonly EmbedderPart[],
    readonly id = 'local',
  ) {
    const total = parts.reduce((sum, p) => sum + p.weight, 0);
    this.scales = parts.map((p) => Math.sqrt(p.weight / total));
    this.model = parts.map((p) => `${p.provider.model}*${p.weight}`).join('+');
    this.dimensions = parts.reduce((sum, p) => sum + p.provider.dimensions, 0);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    return this.join(texts.length, await Promise.all(this.parts.map((p) => p.provider.embed(texts, signal))));
  }

  /** A query's vector: each part's own query path where it has one (the sentence encoder's query threads). */
  async embedQuery(text: string): Promise<number[]> {
    const vectors = await Promise.all(
      this.parts.map(async ({ provider }) =>
        provider.embedQuery ? [await provider.embedQuery(text)] : provider.embed([text]),
      ),
    );
    return this.join(1, vectors)[0];
  }

  /** Row i of every part, each scaled to its share, side by side. */
  private join(count: number, vectors: number[][][]): number[][] {
    return Array.from({ length: count }, (_, i) => {
      const joined: number[] = [];
      vectors.forEach((part, k) => {
        const vector = part[i];
        const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
        const scale = this.scales[k] / norm;
        for (const x of vector) joined.push(x * scale);
      });
      return joined;
    });
  }
}
