import { classifyQuery, queryTarget } from '../../../ai/router/queryClassifier';

describe('classifyQuery', () => {
  it.each([
    ['lookupCache', 'SIMPLE', '1 keyword(s), no question word'],
    ['hard-currency cap', 'SIMPLE', '3 keyword(s), no question word'],
    ['where is embedQuery defined?', 'SIMPLE', 'identifier or code token in a 4-word query'],
    ['How long does a login token last by default?', 'FACTUAL', 'specific question ("how")'],
    ['Which route ingests documents?', 'FACTUAL', 'specific question ("which")'],
    ['Give me an overview of what the platform offers', 'EXPLORATORY', 'broad cue "overview"'],
    [
      'How does the wallet sign-in flow work end to end?',
      'EXPLORATORY',
      'broad cue "how does the wallet sign-in flow work"',
    ],
    ['What is the difference between start and claim signatures?', 'COMPLEX', 'comparative "difference"'],
    ['Compare episodic and archival retention', 'COMPLEX', 'comparative "compare"'],
  ])('%s → %s', (query, expected, reason) => {
    expect(classifyQuery(query)).toEqual({ class: expected, reason });
  });
});

describe('queryTarget', () => {
  it.each([
    ['Which test checks the breaker closes?', 'tests'],
    ['Which function splits camelCase identifiers?', 'code'],
    ['What does embedQuery return?', 'code'],
    ['How long does a login token last?', 'prose'],
    ['breaker', 'any'],
    ['Describe the limits the platform enforces', 'prose'],
    ['In what order should an HTTP handler do its work?', 'prose'],
    ['What stands in for MongoDB when no connection URL is configured?', 'prose'],
    ['What must the signer address match for a signature to be accepted?', 'prose'],
    ['Which number names the test network in the signing domain?', 'prose'],
    ['How are describe blocks named in test files?', 'tests'],
    ['Where is resolveConfig called?', 'code'],
    ['What does config.ts read first?', 'code'],
    ['Which spec file covers the breaker?', 'tests'],
  ])('%s → %s', (query, target) => {
    expect(queryTarget(query)).toBe(target);
  });
});
