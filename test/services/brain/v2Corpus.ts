/** A small mixed corpus: a spec-like doc, code and a test. */
export const V2_CORPUS = [
  {
    source: 'docs/economy.md',
    index: 'docs',
    text:
      '# Economy\n\n## Currencies\n\nThere are two currencies, a soft currency and a hard currency. The soft currency ' +
      'decays by 1% every month. The hard-currency cap is 21,000,000.\n\n## Fees\n\nCreators receive 95% of ' +
      'every sale; the platform keeps a fee of 5%.\n',
  },
  {
    source: 'docs/breaker.md',
    index: 'docs',
    text:
      '# Circuit breaker\n\nThe embedding circuit breaker opens after five consecutive failures.\n\n' +
      '## Recovery\n\nAfter sixty seconds the breaker lets three trial calls through.\n',
  },
  {
    source: 'ai/lookup.ts',
    index: 'code',
    text:
      '/** Looks a key up in the two-level cache. */\nexport function lookupCache(key: string): string {\n' +
      '  return key.trim();\n}\n',
  },
  {
    source: 'test/lookup.test.ts',
    index: 'tests',
    text: "describe('lookupCache', () => {\n  it('hits the cache on the second query', () => {\n    expect(1).toBe(1);\n  });\n});\n",
  },
];
