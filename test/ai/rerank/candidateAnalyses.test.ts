import { CandidateAnalyses } from '../../../ai/rerank/candidateAnalyses';

const chunk = (n: number, text = `chunk ${n} about rerankers and their kept analyses`) => ({
  chunkId: `c${n}`,
  text,
  title: `Title ${n}`,
  symbols: [] as string[],
  source: `docs/page${n}.md`,
});

describe('CandidateAnalyses', () => {
  it("keeps a chunk's analysis: the text's term ids in order, distinct ascending, and the title's", () => {
    const analyses = new CandidateAnalyses();
    const first = analyses.of(chunk(1, 'ranking ranks the ranked chunks'));
    expect(analyses.of(chunk(1, 'ranking ranks the ranked chunks'))).toBe(first);
    // "ranking", "ranks" and "ranked" stem to one term: ids in text order repeat it; distinct holds it once.
    expect([...first.body]).toEqual([0, 0, 0, 1]);
    expect([...first.distinct]).toEqual([0, 1]);
    expect(analyses.idOf('rank')).toBe(0);
    expect(analyses.idOf('chunk')).toBe(1);
    expect(analyses.idOf('absent')).toBe(-1);
    expect(first.title.length).toBeGreaterThan(0);
  });

  it('keeps analyses within its byte budget, dropping the least recently used first', () => {
    const one = new CandidateAnalyses().of(chunk(0));
    const bytes = 400 + one.body.byteLength + one.distinct.byteLength + one.title.byteLength;
    const analyses = new CandidateAnalyses({ maxBytes: bytes * 3 });
    const a = analyses.of(chunk(1));
    analyses.of(chunk(2));
    analyses.of(chunk(3));
    expect(analyses.size).toBe(3);
    analyses.of(chunk(1)); // used again: now the most recent
    analyses.of(chunk(4)); // over the budget: chunk 2, the least recently used, goes
    expect(analyses.size).toBe(3);
    expect(analyses.of(chunk(1))).toBe(a);
    const again = analyses.of(chunk(2));
    expect(again).not.toBe(a);
    expect([...again.distinct]).toEqual([...analyses.of(chunk(2)).distinct]);
  });

  it('starts its ids again only between searches, once the vocabulary is past its bound', () => {
    const analyses = new CandidateAnalyses({ maxTerms: 5 });
    const kept = analyses.of(chunk(1, 'alpha beta gamma delta epsilon zeta eta'));
    // Past the bound, but ids hold until the next search begins.
    expect(analyses.idOf('alpha')).toBe(0);
    expect(analyses.of(chunk(1))).toBe(kept);
    analyses.beginSearch();
    expect(analyses.size).toBe(0);
    expect(analyses.idOf('alpha')).toBe(-1);
    expect(analyses.of(chunk(2, 'zeta alpha')).body[0]).toBe(0);
  });
});
