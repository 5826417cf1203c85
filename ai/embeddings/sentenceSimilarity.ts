import { encodedPart } from './sentenceEncoder';

/** What the similarity needs of an encoder: unit vectors, answered ahead of background work. */
export interface QueryEncoder {
  embedQuery(text: string): Promise<number[]>;
}

/**
 * Cosines of `question` to each of `sentences` with a sentence encoder (its vectors are unit length, so the cosine
 * is the dot product). Every text goes through the encoder's query lane: an ask waits for them. A text is read up to
 * the encoder's limit (`encodedPart`).
 */
export function sentenceSimilarity(encoder: QueryEncoder) {
  return async (question: string, sentences: readonly string[]): Promise<number[]> => {
    const [query, ...vectors] = await Promise.all(
      [question, ...sentences].map((text) => encoder.embedQuery(encodedPart(text))),
    );
    return vectors.map((vector) => {
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i] * query[i];
      return dot;
    });
  };
}
