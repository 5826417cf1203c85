import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { CandidateAnalyses, keptBytes, type Analysis } from '../../../ai/rerank/candidateAnalyses';
import { buildChunk } from '../factories';

const chunk = (n: number, text = `chunk ${n} about rerankers and their kept analyses`) => ({
  chunkId: `c${n}`,
  text,
  title: `Title ${n}`,
  symbols: [] as string[],
  source: `docs/page${n}.md`,
});

/** Whether two analyses are views of one kept region (the analysis was kept, not worked out again). */
const sameRegion = (a: Analysis, b: Analysis) =>
  a.body.buffer === b.body.buffer &&
  a.body.byteOffset === b.body.byteOffset &&
  a.title.length === b.title.length;

describe('CandidateAnalyses', () => {
  it("keeps a chunk's analysis: the text's term ids in order, distinct ascending, and the title's", () => {
    const analyses = new CandidateAnalyses();
    const first = analyses.of(chunk(1, 'ranking ranks the ranked chunks'));
    expect(sameRegion(analyses.of(chunk(1, 'ranking ranks the ranked chunks')), first)).toBe(true);
    // "ranking", "ranks" and "ranked" stem to one term: ids in text order repeat it; distinct holds it once.
    expect([...first.body]).toEqual([0, 0, 0, 1]);
    expect([...first.distinct]).toEqual([0, 1]);
    expect(analyses.idOf('rank')).toBe(0);
    expect(analyses.idOf('chunk')).toBe(1);
    expect(analyses.idOf('absent')).toBe(-1);
    expect(first.title.length).toBeGreaterThan(0);
  });

  it('keeps analyses within its byte budget, dropping first the oldest not read since the last pass', () => {
    const one = new CandidateAnalyses().of(chunk(0));
    const bytes = keptBytes(one);
    const analyses = new CandidateAnalyses({ maxBytes: bytes * 3 });
    const a = analyses.of(chunk(1));
    analyses.of(chunk(2));
    analyses.of(chunk(3));
    expect(analyses.size).toBe(3);
    analyses.of(chunk(1)); // read again: a second chance
    analyses.of(chunk(4)); // over the budget: chunk 1 goes to the back, chunk 2 (not read) goes
    expect(analyses.size).toBe(3);
    expect(sameRegion(analyses.of(chunk(1)), a)).toBe(true);
    const again = analyses.of(chunk(2));
    expect(sameRegion(again, a)).toBe(false);
    expect([...again.distinct]).toEqual([...analyses.of(chunk(2)).distinct]);
  });

  it('starts its ids again only between searches, once the vocabulary is past its bound', () => {
    const analyses = new CandidateAnalyses({ maxTerms: 5 });
    const kept = analyses.of(chunk(1, 'alpha beta gamma delta epsilon zeta eta'));
    // Past the bound, but ids hold until the next search begins.
    expect(analyses.idOf('alpha')).toBe(0);
    expect(sameRegion(analyses.of(chunk(1)), kept)).toBe(true);
    analyses.beginSearch();
    expect(analyses.size).toBe(0);
    expect(analyses.idOf('alpha')).toBe(-1);
    expect(analyses.of(chunk(2, 'zeta alpha')).body[0]).toBe(0);
  });

  it("keeps a running search's views intact when its own candidates push others out; gives their room back after", () => {
    const one = new CandidateAnalyses().of(chunk(0));
    const analyses = new CandidateAnalyses({ maxBytes: keptBytes(one) * 2 });
    analyses.beginSearch();
    const views = [1, 2, 3, 4, 5].map((n) => analyses.of(chunk(n)));
    // Only two fit: the search's first candidates were evicted while it ran, yet its views still read their terms.
    expect(analyses.size).toBe(2);
    const fresh = new CandidateAnalyses();
    const words = (from: CandidateAnalyses, ids: Uint32Array) => {
      const byId = new Map(
        [...(from as unknown as { ids: Map<string, number> }).ids].map(([w, n]) => [n, w]),
      );
      return [...ids].map((id) => byId.get(id));
    };
    views.forEach((view, k) =>
      expect(words(analyses, view.body)).toEqual(words(fresh, fresh.of(chunk(k + 1)).body)),
    );
    // The next search reuses the evicted regions instead of growing the pool.
    analyses.beginSearch();
    const capacity = (analyses as unknown as { pool: { capacity: number } }).pool.capacity;
    [6, 7, 8].forEach((n) => analyses.of(chunk(n)));
    expect((analyses as unknown as { pool: { capacity: number } }).pool.capacity).toBe(capacity);
  });

  it("is handed each chunk's terms by the fulltext index as it indexes them: the same analysis a search would make", () => {
    const fullText = new FullTextIndex();
    const indexed = buildChunk({
      id: 'c-indexed',
      text: 'The circuitBreaker opens after five failures; half-open trials follow.',
      headingPath: ['Guide', 'Breakers'],
      symbols: ['CircuitBreaker'],
    });
    fullText.add([indexed]);
    expect(fullText.analyses.size).toBe(1);
    const [hit] = fullText.search('breaker failures');
    const kept = fullText.analyses.of(hit);
    const fresh = new CandidateAnalyses();
    const made = fresh.of(hit);
    const words = (analyses: CandidateAnalyses, ids: Uint32Array) =>
      [...ids].map(
        (id) => [...(analyses as unknown as { ids: Map<string, number> }).ids].find(([, n]) => n === id)![0],
      );
    expect(words(fullText.analyses, kept.body)).toEqual(words(fresh, made.body));
    expect(words(fullText.analyses, kept.distinct).sort()).toEqual(words(fresh, made.distinct).sort());
    expect(words(fullText.analyses, kept.title).sort()).toEqual(words(fresh, made.title).sort());
  });
});

describe('CandidateAnalyses memory', () => {
  it('compacts its pool when analyses of drifting sizes leave it past twice the budget', () => {
    const maxBytes = 4 * 1024 * 1024;
    const analyses = new CandidateAnalyses({ maxBytes });
    const poolBytes = () => 4 * (analyses as unknown as { pool: { capacity: number } }).pool.capacity;
    let id = 0;
    const seen: number[] = [];
    // Each phase's chunks fall in one size class, half the last one's, and fill the budget twice over.
    for (const words of [2000, 1000, 500, 250, 120, 60, 30]) {
      const text = Array.from({ length: words }, (_, k) => `w${k}`);
      for (let i = 0; i < (2 * maxBytes) / (words * 8); i++) analyses.remember(`c${id++}`, text, ['t']);
      seen.push(poolBytes());
    }
    // Without compaction the pool grew to 27 MiB; with it, never past twice the budget, a slack and a page.
    expect(Math.max(...seen)).toBeLessThan(2 * maxBytes + (1 << 20) + 4 * 2 ** 18 * 4);
    // The kept analyses survived the copies: the newest chunk still reads its 30 terms, in order.
    const newest = analyses.of({ ...chunk(0), chunkId: `c${id - 1}` });
    expect([...newest.body]).toEqual(Array.from({ length: 30 }, (_, k) => analyses.idOf(`w${k}`)));
  });
});
