import { chooseAnswerSentences } from '../../../ai/llm/answerSentences';
import type { ScoredSentence } from '../../../ai/llm/extractiveGenerator';

const buildSentence = (overrides: Partial<ScoredSentence>): ScoredSentence => ({
  n: 1,
  text: 'A sentence.',
  relevance: 0.5,
  score: 0.5,
  ...overrides,
});

describe('extractive answer sentences (one a passage, rank prior, answer type)', () => {
  it('takes at most one sentence a passage, best first, up to the maximum', () => {
    const ranked = [
      buildSentence({ n: 1, text: 'First of one.', score: 0.9 }),
      buildSentence({ n: 1, text: 'Second of one.', score: 0.8 }),
      buildSentence({ n: 2, text: 'Of two.', score: 0.7 }),
      buildSentence({ n: 3, text: 'Of three.', score: 0.6 }),
      buildSentence({ n: 4, text: 'Of four.', score: 0.59 }),
    ];
    expect(chooseAnswerSentences('where is it?', ranked).map((s) => s.text)).toEqual([
      'First of one.',
      'Of two.',
      'Of three.',
    ]);
    expect(chooseAnswerSentences('where is it?', ranked, { maxSentences: 1 })).toHaveLength(1);
  });

  it('never chooses a sentence sharing nothing with the question', () => {
    const ranked = [buildSentence({ n: 1, relevance: 0, score: 0.9 }), buildSentence({ n: 2, score: 0.1 })];
    expect(chooseAnswerSentences('where is it?', ranked).map((s) => s.n)).toEqual([2]);
  });

  it('prefers, at equal scores, the sentence of the higher-ranked passage', () => {
    const ranked = [buildSentence({ n: 5, text: 'Deep.' }), buildSentence({ n: 1, text: 'Top.' })];
    expect(chooseAnswerSentences('where is it?', ranked, { maxSentences: 1 })[0].text).toBe('Top.');
  });

  it("leans on the router's order: a better-worded sentence of the third passage does not displace the first's", () => {
    const ranked = [
      buildSentence({ n: 3, text: 'Worded like the question.', score: 0.9 }),
      buildSentence({ n: 1, text: 'States it plainly.', score: 0.3 }),
    ];
    expect(chooseAnswerSentences('where is it?', ranked, { maxSentences: 1 })[0].text).toBe(
      'States it plainly.',
    );
    expect(chooseAnswerSentences('where is it?', ranked, { maxSentences: 1, rankWeight: 0.3 })[0].text).toBe(
      'Worded like the question.',
    );
  });

  it('prefers a sentence holding a value of the type the question asks for', () => {
    const ranked = [
      buildSentence({ n: 1, text: 'Sessions expire when idle.', score: 0.6 }),
      buildSentence({ n: 1, text: 'Sessions expire after 30 minutes.', score: 0.55 }),
    ];
    expect(chooseAnswerSentences('How long do sessions last?', ranked, { maxSentences: 1 })[0].text).toBe(
      'Sessions expire after 30 minutes.',
    );
    expect(chooseAnswerSentences('Why do sessions expire?', ranked, { maxSentences: 1 })[0].text).toBe(
      'Sessions expire when idle.',
    );
  });
});
