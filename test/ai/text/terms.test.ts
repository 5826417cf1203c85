import { analyze, queryTerms } from '../../../ai/text/terms';

describe('analyze', () => {
  it('splits identifiers, drops stop words and one-letter words, stems, and keeps numbers', () => {
    expect(
      analyze('The chunks chunking runs embedQuery snake_case x y 42 café naïve über a2b http2 zz'),
    ).toEqual([
      'chunk',
      'chunk',
      'run',
      'embedqueri',
      'emb',
      'queri',
      'snake_cas',
      'snake',
      'case',
      '42',
      'café',
      'naïv',
      'über',
      'a2b',
      '2b',
      'http2',
      'http',
      '2',
      'zz',
    ]);
  });

  it('gives a plain lower-case word the terms of its capitalised form', () => {
    expect(analyze('ledger transfers recovery the a')).toEqual(['ledger', 'transfer', 'recoveri']);
    expect(analyze('Ledger Transfers Recovery The A')).toEqual(analyze('ledger transfers recovery the a'));
    expect(queryTerms('Transfers transfers TRANSFERS')).toEqual(new Set(['transfer']));
  });
});
