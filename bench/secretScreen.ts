/**
 * The ingest secret screen (ai/secrets) on labelled and on real material: precision and recall on the synthetic
 * corpus of test/fixtures/secrets/screenCorpus.json (secrets and look-alikes), then the documents refused among the
 * third-party documentation of bench/corpora/ (none should be: documentation is not secrets) and the repository's
 * own files (which ones and why, by rule and line), with the scan's throughput.
 * Run: npx tsx bench/secretScreen.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSourceFiles } from '../ai/corpus/repositoryFiles';
import { scoreScreen, type ScreenCase } from '../ai/secrets/screenCorpus';
import { detectSecrets } from '../ai/secrets/secretDetector';
import { loadCorpora } from './brainEval/corpusSet';

async function main(): Promise<void> {
  const fixture = JSON.parse(
    readFileSync(join(__dirname, '..', 'test', 'fixtures', 'secrets', 'screenCorpus.json'), 'utf8'),
  ) as { positives: ScreenCase[]; negatives: ScreenCase[] };
  const score = scoreScreen([...fixture.positives, ...fixture.negatives]);
  console.log(
    `synthetic corpus (${fixture.positives.length} secrets, ${fixture.negatives.length} look-alike documents): ` +
      `precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}` +
      (score.wrong.length > 0 ? `\n  ${score.wrong.join('\n  ')}` : ''),
  );
  for (const corpus of loadCorpora()) {
    let bytes = 0;
    let ms = 0;
    let files = 0;
    const refused: string[] = [];
    for (const folder of corpus.paths) {
      for (const source of await listSourceFiles(corpus.root, folder)) {
        const text = readFileSync(join(corpus.root, source), 'utf8');
        const started = performance.now();
        const findings = detectSecrets(text);
        ms += performance.now() - started;
        bytes += Buffer.byteLength(text);
        files++;
        if (findings.length > 0)
          refused.push(`${source} (${findings.map((f) => `${f.rule} at line ${f.line}`).join(', ')})`);
      }
    }
    console.log(
      `${corpus.name}: ${refused.length} of ${files} files refused; ${(bytes / 1e6).toFixed(1)} MB scanned in ` +
        `${ms.toFixed(0)} ms (${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s)` +
        (refused.length > 0 ? `\n  ${refused.join('\n  ')}` : ''),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
