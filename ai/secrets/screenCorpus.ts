import { detectSecrets } from './secretDetector';
import type { SecretKind } from './secretFinding';

/** A case of the screen's corpus: a text and the findings it must produce (none for a look-alike). */
export interface ScreenCase {
  id: string;
  text: string;
  expect: Array<{ kind: SecretKind; rule: string; line: number }>;
}

/** How the detector did on a corpus: precision and recall over findings, and the cases it got wrong. */
export interface ScreenScore {
  precision: number;
  recall: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  wrong: string[];
}

/**
 * Scores detectSecrets on labelled cases: a finding is true when a case expects that kind, rule and line; every
 * other finding is false (on a look-alike it is a refused document), every expected finding not made is missed.
 */
export function scoreScreen(cases: readonly ScreenCase[]): ScreenScore {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const wrong: string[] = [];
  const key = (f: { kind: string; rule: string; line: number }) => `${f.kind}/${f.rule}@${f.line}`;
  for (const c of cases) {
    const found = new Set(detectSecrets(c.text).map(key));
    const expected = new Set(c.expect.map(key));
    for (const f of found) {
      if (expected.has(f)) truePositives++;
      else {
        falsePositives++;
        wrong.push(`${c.id}: unexpected ${f}`);
      }
    }
    for (const f of expected) {
      if (found.has(f)) continue;
      falseNegatives++;
      wrong.push(`${c.id}: missed ${f}`);
    }
  }
  return {
    precision: truePositives / (truePositives + falsePositives || 1),
    recall: truePositives / (truePositives + falseNegatives || 1),
    truePositives,
    falsePositives,
    falseNegatives,
    wrong,
  };
}
