import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

describe('LocalHashEmbedder', () => {
  const embedder = new LocalHashEmbedder();

  it('names its space by scheme and size and returns unit vectors of 384 dimensions', async () => {
    const [vector] = await embedder.embed(['The circuit breaker opens after five failures.']);

    expect([embedder.id, embedder.model, embedder.dimensions, vector.length]).toEqual([
      'local',
      'local-hash-v1-384',
      384,
      384,
    ]);
    expect(cosine(vector, vector)).toBeCloseTo(1, 12);
  });

  it('is deterministic', () => {
    expect(embedder.embedOne('reciprocal rank fusion')).toEqual(
      new LocalHashEmbedder().embedOne('reciprocal rank fusion'),
    );
  });

  it('puts texts sharing vocabulary, inflections and identifier parts closer than unrelated ones', () => {
    const query = embedder.embedOne('when does the breaker open?');
    const related = embedder.embedOne('CircuitBreaker opens after 5 consecutive failures');
    const unrelated = embedder.embedOne('Companions cannot be purchased in the marketplace');

    expect(cosine(query, related)).toBeGreaterThan(0.3);
    expect(cosine(query, unrelated)).toBeLessThan(0.1);
  });

  it('gives a zero vector for text without terms', () => {
    expect(embedder.embedOne('the of and ?').every((value) => value === 0)).toBe(true);
  });
});
