import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

describe('LocalSemanticEmbedder (local-sem-v1-384)', () => {
  const semantic = new LocalSemanticEmbedder();
  const hash = new LocalHashEmbedder();

  it('is its own 384-dimension vector space, deterministic and L2-normalised', async () => {
    const [a, b] = await semantic.embed(['erase the records', 'erase the records']);

    expect([semantic.id, semantic.model, semantic.dimensions]).toEqual(['local', 'local-sem-v1-384', 384]);
    expect(a).toEqual(b);
    expect(cosine(a, a)).toBeCloseTo(1, 10);
  });

  it('brings synonyms together where the hash embedder sees unrelated words', () => {
    const pair = (e: { embedOne(t: string): number[] }) =>
      cosine(e.embedOne('erase the old records'), e.embedOne('delete the old records'));
    const unrelated = (e: { embedOne(t: string): number[] }) =>
      cosine(e.embedOne('erase the old records'), e.embedOne('paint the old records'));

    expect(pair(semantic)).toBeGreaterThan(pair(hash));
    expect(pair(semantic)).toBeGreaterThan(unrelated(semantic));
  });
});
