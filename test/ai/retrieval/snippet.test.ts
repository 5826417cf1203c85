import { buildSnippet } from '../../../ai/retrieval/snippet';
import { queryTerms } from '../../../ai/text/terms';

describe('buildSnippet', () => {
  it('wraps matched words, including inflections and identifier parts, and escapes HTML', () => {
    expect(buildSnippet('Use <b>embedQuery</b> for queries & caching.', queryTerms('query cache'))).toBe(
      'Use &lt;b&gt;<mark>embedQuery</mark>&lt;/b&gt; for <mark>queries</mark> &amp; <mark>caching</mark>.',
    );
  });

  it('centres the window on the densest run of distinct terms and marks cuts with ellipses', () => {
    const text = `${'filler words here. '.repeat(20)}The circuit breaker opens. ${'more filler text. '.repeat(20)}`;

    const snippet = buildSnippet(text, queryTerms('circuit breaker'), { maxChars: 60 });

    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('<mark>circuit</mark> <mark>breaker</mark> opens.');
  });

  it('starts at the beginning when nothing matches and honours custom marks', () => {
    expect(buildSnippet('Alpha beta gamma.', queryTerms('delta'), { maxChars: 10 })).toBe('Alpha beta…');
    expect(buildSnippet('Alpha beta.', queryTerms('beta'), { open: '**', close: '**' })).toBe(
      'Alpha **beta**.',
    );
  });
});

describe('buildSnippet highlighting', () => {
  // The examples of Porter's 1980 paper for every rule of the stemmer: whatever a rule rewrites at the end of
  // a word, the word is still found and marked.
  const porterExamples = (
    'caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized ' +
    'hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational valenci ' +
    'hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization predication ' +
    'operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti sensibility ' +
    'capability triplicate formative formalize electriciti electrical hopeful goodness revival allowance ' +
    'inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption ' +
    'homologou communism activate angulariti homologous effective bowdlerize probate rate cease controll roll'
  ).split(' ');

  it.each(porterExamples)('marks "%s" and its capitalised and camelCase forms when queried by it', (word) => {
    const capitalised = word[0].toUpperCase() + word.slice(1);
    const text = `Before ${word}, then ${capitalised.toUpperCase()} and makeThe${capitalised} after.`;

    expect(buildSnippet(text, queryTerms(word))).toBe(
      `Before <mark>${word}</mark>, then <mark>${capitalised.toUpperCase()}</mark> and ` +
        `<mark>makeThe${capitalised}</mark> after.`,
    );
  });

  it('marks whole words only, letters beyond ASCII included, and cuts the window between words', () => {
    const text = `${'Ärger 𝒳ylophon '.repeat(12)}naïve café ${'Ärger 𝒳ylophon '.repeat(12)}`;

    const snippet = buildSnippet(text, queryTerms('naïve cafés'), { maxChars: 50 });

    expect(snippet).toContain('<mark>naïve</mark> <mark>café</mark>');
    expect(snippet).toMatch(/^…(Ärger|𝒳ylophon) .* (Ärger|𝒳ylophon)…$/u);
    expect(buildSnippet('subquery queryable', queryTerms('queries'))).toBe('subquery queryable');
    expect(buildSnippet('A text, then more.', new Set(['', '.']))).toBe('A text, then more.');
    // Lower-casing İ adds a character: the offsets of what follows must still be those of the text.
    expect(buildSnippet('İSTANBUL İİİİİİİİ: kebabs & other words.', queryTerms('kebab İstanbul'))).toBe(
      '<mark>İSTANBUL</mark> İİİİİİİİ: <mark>kebabs</mark> &amp; other words.',
    );
  });
});
