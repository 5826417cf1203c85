import corpus from '../../fixtures/secrets/screenCorpus.json';
import { scoreScreen, type ScreenCase } from '../../../ai/secrets/screenCorpus';
import { detectSecrets, redactFindings } from '../../../ai/secrets/secretDetector';

const positives = corpus.positives as ScreenCase[];
const negatives = corpus.negatives as ScreenCase[];

describe('secret detector (ingest screen)', () => {
  it('finds every synthetic secret of the corpus and nothing in its look-alikes: precision and recall 1', () => {
    const score = scoreScreen([...positives, ...negatives]);
    console.log(
      `secret screen on ${positives.length} secrets and ${negatives.length} look-alike documents: ` +
        `precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)} ` +
        `(${score.truePositives} found, ${score.falsePositives} false, ${score.falseNegatives} missed)`,
    );
    expect(score.wrong).toEqual([]);
    expect([score.precision, score.recall]).toEqual([1, 1]);
  });

  it.each(negatives.map((c) => [c.id, c.text] as const))('lets %s through', (_id, text) => {
    expect(detectSecrets(text)).toEqual([]);
  });

  it('names where a secret is, never what it is, and redacts it', () => {
    const text = positives.find((c) => c.id === 'env-private-key-0x')!.text;
    const findings = detectSecrets(text);

    expect(findings.map(({ kind, rule, line }) => ({ kind, rule, line }))).toEqual([
      { kind: 'private_key', rule: 'assigned_hex_key', line: 2 },
    ]);
    expect(JSON.stringify(findings)).not.toMatch(/[0-9a-f]{64}/);
    expect(redactFindings(text, findings)).toBe(
      'RPC_URL=https://rpc.example.org\n[redacted:private_key]\nCHAIN_ID=8453',
    );
  });

  it('verifies a seed phrase by its checksum: a run of list words that fails it passes', () => {
    const phrase = 'test test test test test test test test test test test junk';
    expect(detectSecrets(`seed: ${phrase}`).map((f) => f.rule)).toEqual(['bip39_mnemonic']);
    expect(detectSecrets(phrase.replace('junk', 'test'))).toEqual([]);
  });

  it('scans hostile input in linear time', () => {
    const started = performance.now();
    detectSecrets(`${'a'.repeat(50_000)} ${'abandon '.repeat(5_000)} ${'PRIVATE_KEY'.repeat(5_000)}`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
