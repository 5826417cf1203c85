import { extractDecisions } from '../../../ai/memory/decisionPatterns';
import { extractiveSummary } from '../../../ai/memory/extractiveSummary';
import { extractEntityNames, extractFacts } from '../../../ai/memory/factPatterns';
import { redactSecrets, scanForSecrets } from '../../../ai/memory/secretScanner';
import { recallScore, relevanceOf, termCoverage } from '../../../ai/memory/recallScoring';
import { queryTerms } from '../../../ai/text/terms';

describe('offline memory text patterns', () => {
  it('extracts single- and multi-valued facts, with I/my as the entity me', () => {
    expect(
      extractFacts('Ann moved to Hilltown. I work at the Harbour Guild, and my favourite colour is blue.'),
    ).toEqual([
      { subject: 'Ann', predicate: 'lives_in', object: 'Hilltown', singleValued: true },
      { subject: 'me', predicate: 'works_at', object: 'Harbour Guild', singleValued: true },
      { subject: 'me', predicate: 'favorite_colour', object: 'blue', singleValued: true },
    ]);
    expect(extractFacts('Tom likes honey cakes')).toEqual([
      { subject: 'Tom', predicate: 'likes', object: 'honey cakes', singleValued: false },
    ]);
    expect(extractEntityNames('Yesterday Ann Smith met Tom at the Copper Mine.')).toEqual([
      'Ann Smith',
      'Tom',
      'Copper Mine',
    ]);
  });

  it('extracts decisions with rationale and category', () => {
    expect(
      extractDecisions(
        "We decided to use Redis for sessions because it is shared. Let's go with weekly quests.",
      ),
    ).toEqual([
      {
        title: 'use Redis for sessions',
        category: 'architecture',
        rationale: 'it is shared',
        sentence: 'We decided to use Redis for sessions because it is shared.',
      },
      {
        title: 'weekly quests',
        category: 'feature',
        rationale: "Let's go with weekly quests",
        sentence: "Let's go with weekly quests.",
      },
    ]);
    expect(extractDecisions('The weather was nice.')).toEqual([]);
  });

  it('summarises extractively within the length, in the original order', () => {
    const summary = extractiveSummary(
      ['Mara sells swords. Mara sells shields.', 'The sky is blue.', 'Mara sells swords.'],
      40,
    );
    expect(summary).toBe('Mara sells swords. Mara sells shields.');
  });

  it('finds secrets by kind and place, and redacts them', () => {
    const text = `notes:\nmy private key is 0x${'1f'.repeat(32)}\nmail bob@example.com`;
    const findings = scanForSecrets(text);
    expect(findings.map((f) => [f.kind, f.line])).toEqual([
      ['private_key', 2],
      ['email', 3],
    ]);
    expect(redactSecrets(text)).toBe('notes:\nmy [redacted:private_key]\nmail [redacted:email]');
    const pem = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----';
    expect(scanForSecrets(pem).map((f) => f.kind)).toEqual(['private_key']);
    expect(scanForSecrets(`PRIVATE_KEY=0x${'2e'.repeat(32)}`).map((f) => f.kind)).toEqual(['private_key']);
  });

  it('leaves hashes alone: a bare 64-hex value is a transaction hash, a checksum or a digest, not a key', () => {
    for (const text of [
      `the trade went through, tx 0x${'3c'.repeat(32)}`,
      `sha256 of the map file: ${'9a'.repeat(32)}`,
      `see https://cdn.example.com/img/${'4d'.repeat(32)}.png`,
      `public key 0x${'5b'.repeat(32)}`,
    ])
      expect(scanForSecrets(text, ['private_key', 'mnemonic'])).toEqual([]);
  });

  it('finds a checksum-valid seed phrase, and scans only the kinds asked', () => {
    // A valid BIP-39 phrase (entropy 0x5a…5a); prose of list words whose checksum fails is not a phrase.
    const seed = 'fog spot notable regret pizza coffee harvest ensure fog spot notable reflect';
    const text = `intro line\nseed:  ${seed}.\nend`;
    const [finding] = scanForSecrets(text, ['mnemonic']);
    expect(finding).toMatchObject({ kind: 'mnemonic', line: 2 });
    expect(text.slice(finding.start, finding.start + finding.length)).toBe(seed);
    expect(
      scanForSecrets('abandon ability able about above absent absorb abstract absurd abuse access accident'),
    ).toEqual([]);
    expect(scanForSecrets(`${seed} bob@example.com`, ['private_key', 'mnemonic']).map((f) => f.kind)).toEqual(
      ['mnemonic'],
    );
  });

  it('scores relevance, recency and importance', () => {
    expect(termCoverage(queryTerms('where does Ann live'), 'Ann lives in Riverside')).toBe(1);
    expect(relevanceOf(1, 1)).toBe(1);
    expect(recallScore(1, 0, 1)).toBeCloseTo(1);
    expect(recallScore(1, 30 * 86_400, 0)).toBeCloseTo(0.725);
    expect(termCoverage(queryTerms('ann car'), 'Ann lives here', (term) => (term === 'ann' ? 1 : 3))).toBe(
      0.25,
    );
  });
});

describe('patterns on hostile input', () => {
  // Quadratic backtracking took 28 s on 20,000 capitals; linear patterns finish well inside the test timeout.
  it.each([
    ['capitals', 'A'.repeat(20_000), ['A'.repeat(40)]],
    ['short names', 'A A '.repeat(5_000), []],
    ['e-mail local parts', 'a.'.repeat(10_000), []],
  ])('handles %s (20,000 characters) without backtracking', (_name, text, firstNames) => {
    expect(extractFacts(text)).toEqual([]);
    expect(extractEntityNames(text).slice(0, firstNames.length)).toEqual(firstNames);
    expect(extractDecisions(text)).toEqual([]);
    expect(scanForSecrets(text)).toEqual([]);
  });
});
