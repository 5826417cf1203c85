import {
  corpusProblems,
  loadCorpora,
  splitOf,
  thirdPartyCorpusNames,
  type EvalCorpus,
} from '../../bench/brainEval/corpusSet';

/** The multi-corpus evaluation's questions are well formed (no retrieval: files and the split rule only). */
describe('bench/brainEvalCorpora questions', () => {
  const corpora = loadCorpora();

  it('has the repository set and at least three third-party corpora', () => {
    expect(corpora[0].name).toBe('forge');
    expect(thirdPartyCorpusNames().length).toBeGreaterThanOrEqual(3);
  });

  it.each(corpora.map((c) => [c.name, c] as const))(
    '%s: every cited file exists (holding its anchor) and every split follows the rule',
    (_name, corpus: EvalCorpus) => {
      expect(corpusProblems(corpus)).toEqual([]);
    },
  );

  it.each(corpora.filter((c) => c.name !== 'forge').map((c) => [c.name, c] as const))(
    '%s: at least 50 answerable questions of several kinds and 10 unanswerable, in both halves',
    (_name, corpus: EvalCorpus) => {
      const answerable = corpus.questions.filter((q) => q.kind !== 'unanswerable');
      const unanswerable = corpus.questions.filter((q) => q.kind === 'unanswerable');
      expect(answerable.length).toBeGreaterThanOrEqual(50);
      expect(unanswerable.length).toBeGreaterThanOrEqual(10);
      expect(new Set(answerable.map((q) => q.kind)).size).toBeGreaterThanOrEqual(4);
      for (const set of [answerable, unanswerable]) {
        expect(set.some((q) => q.split === 'tuning')).toBe(true);
        expect(set.some((q) => q.split === 'heldout')).toBe(true);
      }
    },
  );

  it('splits by the first byte of the SHA-256 of the id: odd is held out', () => {
    // sha256: fastify-a01 0xdc, fastify-a03 0xc3, forge-q01 0xa6, forge-q02 0x01.
    expect(['fastify-a01', 'fastify-a03', 'forge-q01', 'forge-q02'].map(splitOf)).toEqual([
      'tuning',
      'heldout',
      'tuning',
      'heldout',
    ]);
  });

  it('reports a missing file, a wrong split and an answerable question without answers', () => {
    const corpus: EvalCorpus = {
      name: 'fastify',
      root: corpora.find((c) => c.name === 'fastify')!.root,
      paths: ['.'],
      questions: [
        {
          id: 'fastify-x1',
          kind: 'lookup',
          question: 'Where is the missing page?',
          answers: [{ source: 'docs/Nowhere.md' }],
          split: splitOf('fastify-x1'),
        },
        {
          id: 'fastify-x2',
          kind: 'howto',
          question: 'How do I answer nothing at all?',
          answers: [],
          split: splitOf('fastify-x2') === 'tuning' ? 'heldout' : 'tuning',
        },
      ],
    };
    expect(corpusProblems(corpus)).toEqual([
      'fastify fastify-x1: docs/Nowhere.md does not exist',
      'fastify fastify-x2: no answers',
      `fastify fastify-x2: split ${splitOf('fastify-x2') === 'tuning' ? 'heldout' : 'tuning'}, the rule says ${splitOf('fastify-x2')}`,
    ]);
  });
});
