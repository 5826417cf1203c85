import { Bm25Index } from '../../../ai/fulltext/bm25Index';

const field = (text: string, boost = 1) => [{ text, boost }];

describe('Bm25Index', () => {
  it('scores with BM25: idf × tf(k1 + 1) / (tf + k1(1 − b + b·len/avg))', () => {
    const index = new Bm25Index({ k1: 1.2, b: 0.75 });
    index.add('a', field('breaker breaker open'));
    index.add('b', field('cache'));

    const [hit] = index.search(['breaker'], 5);

    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const norm = 1.2 * (1 - 0.75 + (0.75 * 3) / 2);
    expect(hit.id).toBe('a');
    expect(hit.score).toBeCloseTo((idf * 2 * 2.2) / (2 + norm), 12);
  });

  it('weights fields by boost and ranks the boosted match first', () => {
    const index = new Bm25Index();
    index.add('body', [...field('other words', 3), ...field('fusion ranking lists')]);
    index.add('symbol', [...field('fusion', 3), ...field('ranking lists here')]);

    expect(index.search(['fusion'], 5).map((h) => h.id)).toEqual(['symbol', 'body']);
  });

  it('replaces on re-add, removes by id, reuses numbers and honours accept and limit', () => {
    const index = new Bm25Index();
    index.add('a', field('alpha'));
    index.add('b', field('alpha beta'));
    index.add('a', field('gamma'));
    index.remove('b');
    index.add('c', field('alpha alpha'));

    expect(index.size).toBe(2);
    expect(index.search(['alpha'], 5).map((h) => h.id)).toEqual(['c']);
    expect(index.search(['gamma', 'alpha'], 1, (id) => id !== 'c').map((h) => h.id)).toEqual(['a']);
    expect(index.search(['missing'], 5)).toEqual([]);
  });
});
