import { Bm25Index } from '../../../ai/fulltext/bm25Index';

const field = (text: string, boost = 1) => [{ text, boost }];

/** The best `limit` documents of a full BM25 scan (k1 1.2, b 0.75) of `docs` (id → words), for comparison. */
function fullScan(
  docs: ReadonlyMap<string, string[]>,
  terms: string[],
  limit: number,
  accept: (id: string) => boolean = () => true,
  weights?: Map<string, number>,
): { id: string; score: number }[] {
  const average = [...docs.values()].reduce((sum, words) => sum + words.length, 0) / docs.size;
  const df = (term: string) => [...docs.values()].filter((w) => w.includes(term)).length;
  const frequency = new Map([...new Set(terms)].map((term) => [term, df(term)]));
  const scored = [...docs].map(([id, words]) => {
    let score = 0;
    for (const [term, documents] of frequency) {
      const tf = words.filter((w) => w === term).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (docs.size - documents + 0.5) / (documents + 0.5)) * (weights?.get(term) ?? 1);
      score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * words.length) / average));
    }
    return { id, score };
  });
  return scored
    .filter((hit) => hit.score > 0 && accept(hit.id))
    .sort((x, y) => y.score - x.score)
    .slice(0, limit);
}

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
    expect(index.search(['gamma', 'alpha'], 1, { accept: (id) => id !== 'c' }).map((h) => h.id)).toEqual([
      'a',
    ]);
    expect(index.search(['missing'], 5)).toEqual([]);
  });

  it('removes and re-adds documents of a common term (past the slot map threshold) and keeps its postings exact', () => {
    const index = new Bm25Index();
    // 40 documents share `common`; every fifth also holds `rare`.
    for (let n = 0; n < 40; n++) index.add(`d${n}`, field(`common filler${n}${n % 5 === 0 ? ' rare' : ''}`));
    for (const n of [0, 7, 13, 39, 20]) index.remove(`d${n}`);
    index.add('d7', field('common rare again'));
    index.add('d41', field('common'));
    for (const n of [1, 2, 41]) index.remove(`d${n}`);

    const ids = (term: string) =>
      index
        .search([term], 100)
        .map((h) => h.id)
        .sort();
    const expected = Array.from({ length: 40 }, (_, n) => `d${n}`)
      .filter((id) => !['d0', 'd13', 'd39', 'd20', 'd1', 'd2'].includes(id))
      .sort();
    expect(ids('common')).toEqual(expected);
    expect(ids('rare')).toEqual(['d10', 'd15', 'd25', 'd30', 'd35', 'd5', 'd7'].sort());
    expect(index.documentFrequency('common')).toBe(expected.length);
  });

  it('prunes common terms (MaxScore) without changing the top k of a full BM25 scan', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // Zipf-like vocabulary: w0 is in almost every document, w199 in few.
    const word = () => `w${Math.floor(200 * random() ** 3)}`;
    const index = new Bm25Index();
    const docs = new Map<string, string[]>();
    for (let i = 0; i < 3000; i++) {
      const words = Array.from({ length: 3 + Math.floor(random() * 12) }, word);
      docs.set(`d${i}`, words);
      index.add(`d${i}`, field(words.join(' ')));
    }
    for (let i = 0; i < 300; i++) {
      docs.delete(`d${i * 7}`);
      index.remove(`d${i * 7}`);
    }
    for (let q = 0; q < 40; q++) {
      const terms = Array.from({ length: 2 + (q % 5) }, word);
      const limit = 1 + (q % 10);
      const accept = q % 3 === 0 ? (id: string) => Number(id.slice(1)) % 2 === 0 : () => true;
      const weights = q % 4 === 0 ? new Map(terms.map((term, i) => [term, i % 2 ? 0.3 : 1])) : undefined;

      const pruned = index.search(terms, limit, { accept, termWeights: weights });

      const expected = fullScan(docs, terms, limit, accept, weights);
      expect(pruned.map((hit) => hit.score)).toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));
    }
  });

  it('stays exact through churn: adds, replaces and removals, postings past a shared page, terms dropped and reused', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () => `t${Math.floor(300 * random() ** 2)}`;
    const index = new Bm25Index();
    const docs = new Map<string, string[]>();
    const put = (id: string, words: string[]) => {
      docs.set(id, words);
      index.add(id, field(words.join(' ')));
    };
    // `x0` is in more documents than a shared region holds (4,096), so its postings get pages of their own.
    for (let i = 0; i < 4500; i++) put(`d${i}`, ['x0', ...Array.from({ length: 2 + (i % 6) }, word)]);
    for (let op = 0; op < 3000; op++) {
      const id = `d${Math.floor(random() * 5000)}`;
      const roll = random();
      if (roll < 0.4) {
        docs.delete(id);
        index.remove(id);
      } else put(id, [...(roll < 0.7 ? ['x0'] : []), `f${op % 50}`, ...Array.from({ length: 3 }, word)]);
    }

    expect(index.size).toBe(docs.size);
    const vocabulary = new Set([...docs.values()].flat());
    for (const term of [...vocabulary, 'gone', 't299'])
      expect([term, index.documentFrequency(term)]).toEqual([
        term,
        [...docs.values()].filter((words) => words.includes(term)).length,
      ]);
    for (let q = 0; q < 25; q++) {
      const terms = [word(), word(), `f${q}`, ...(q % 2 ? ['x0'] : [])];
      const limit = 1 + (q % 8);
      expect(index.search(terms, limit).map((hit) => hit.score)).toEqual(
        fullScan(docs, terms, limit).map((hit) => expect.closeTo(hit.score, 9)),
      );
    }
  });

  it('keeps a posting exact as it shrinks to a smaller region after most of its documents go', () => {
    const index = new Bm25Index();
    const docs = new Map<string, string[]>();
    for (let i = 0; i < 100; i++) {
      docs.set(`d${i}`, ['k0', `u${i}`]);
      index.add(`d${i}`, field(`k0 u${i}`));
    }
    for (let i = 0; i < 100; i++)
      if (i % 10 !== 3) {
        docs.delete(`d${i}`);
        index.remove(`d${i}`);
      }
    index.add('late', field('k0 u1000'));
    docs.set('late', ['k0', 'u1000']);

    expect(index.documentFrequency('k0')).toBe(11);
    const postings = (index as unknown as { postings: { table: number[]; idOf(t: string): number } })
      .postings;
    // A posting of 100 documents filled a region of 128; at 11 it sits in one of 32 or less.
    expect(postings.table[postings.idOf('k0') * 6 + 2]).toBeLessThanOrEqual(5);
    expect(
      index
        .search(['k0'], 20)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual([...docs.keys()].sort());
    expect(index.search(['k0', 'u43'], 1).map((hit) => hit.id)).toEqual(['d43']);
  });

  it('with maxCandidates scores only the newest documents holding the rarest terms', () => {
    const index = new Bm25Index();
    for (let i = 0; i < 50; i++) index.add(`old${i}`, field('common words here'));
    index.add('rare', field('common words unicorn'));
    for (let i = 0; i < 50; i++) index.add(`new${i}`, field('common words here'));

    const bounded = index.search(['unicorn', 'common', 'words'], 3, { maxCandidates: 10 });
    const newest = index.search(['common', 'words'], 100, { maxCandidates: 10 });

    expect(bounded[0].id).toBe('rare');
    expect(bounded).toHaveLength(3);
    expect(newest.map((hit) => hit.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `new${49 - i}`).sort(),
    );
  });
});
