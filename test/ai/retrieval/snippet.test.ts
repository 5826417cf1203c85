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
