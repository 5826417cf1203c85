/**
 * Fits /brain/ask's abstention model (ai/answer/answerConfidence.ts) on a trace of the tuning half written by
 * bench/brainEval/routerLab.ts --trace-ask: every question answered once, with its evidence features and whether
 * the answer cited a relevant passage. A grid over the feature weights (at most three features at once); for each,
 * the cut-off that answers the most answerable questions correctly while abstaining on at least `--abstain`
 * (default 0.9) of the unanswerable ones, placed midway between the two traced scores around it. Prints the best
 * models, the simplest first among equals (fewer features used, then smaller weights), and the shipped models'
 * result on the same trace.
 * Run: npx tsx bench/brainEval/fitConfidence.ts trace.json [--variant=name] [--abstain=0.9] [--features=a,b]
 */
import fs from 'node:fs';
import {
  CALIBRATED_CONFIDENCE,
  NEURAL_CONFIDENCE,
  shouldAnswer,
  type ConfidenceModel,
  type EvidenceFeatures,
} from '../../ai/answer/answerConfidence';

interface Traced {
  corpus: string;
  variant: string;
  id: string;
  kind: string;
  correct: boolean;
  evidence?: EvidenceFeatures;
}

type Feature = 'sentence' | 'top' | 'agreement' | 'similarity' | 'unseen';
const GRIDS: Record<Feature, number[]> = {
  sentence: [0, 0.5, 1, 2, 3, 4, 6, 8],
  top: [0, 0.5, 1, 2, 3, 4],
  agreement: [0, 1, 2, 4],
  similarity: [0, 0.5, 1, 2, 3, 4, 6],
  unseen: [0, -0.25, -0.5, -1, -2],
};

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const file = process.argv[2];
const variant = flag('variant');
const minAbstain = Number(flag('abstain') ?? '0.9');
const trace = (JSON.parse(fs.readFileSync(file, 'utf8')) as Traced[]).filter(
  (t) => (!variant || t.variant === variant) && t.evidence,
);
const features = (flag('features')?.split(',') ??
  (trace.some((t) => t.evidence!.similarity !== undefined)
    ? ['sentence', 'top', 'agreement', 'similarity', 'unseen']
    : ['sentence', 'top', 'agreement', 'unseen'])) as Feature[];
const answerable = trace.filter((t) => t.kind !== 'unanswerable');
const unanswerable = trace.filter((t) => t.kind === 'unanswerable');
const value = (t: Traced, f: Feature) => t.evidence![f] ?? 0;

interface Fitted {
  weights: number[];
  bias: number;
  correct: number;
  abstained: number;
}

function fit(weights: number[]): Fitted | undefined {
  const z = (t: Traced) => features.reduce((sum, f, i) => sum + weights[i] * value(t, f), 0);
  const cuts = [...new Set(trace.map(z))].sort((a, b) => a - b);
  for (const [i, cut] of cuts.entries()) {
    const answers = (t: Traced) => t.evidence!.names === 0 && z(t) >= cut;
    const abstained = unanswerable.filter((t) => !answers(t)).length;
    if (abstained < minAbstain * unanswerable.length) continue;
    // The lowest cut-off meeting the abstention bound answers the most; midway to the score below it.
    const midway = i === 0 ? cut : (cut + cuts[i - 1]) / 2;
    return {
      weights,
      bias: -midway,
      correct: answerable.filter((t) => t.correct && answers(t)).length,
      abstained,
    };
  }
  return undefined;
}

const models: Fitted[] = [];
const walk = (i: number, weights: number[]) => {
  if (i === features.length) {
    const used = weights.filter((w) => w !== 0).length;
    if (used === 0 || used > 3) return;
    const fitted = fit(weights);
    if (fitted) models.push(fitted);
    return;
  }
  for (const w of GRIDS[features[i]]) walk(i + 1, [...weights, w]);
};
walk(0, []);
const used = (m: Fitted) => m.weights.filter((w) => w !== 0).length;
const total = (m: Fitted) => m.weights.reduce((a, b) => a + Math.abs(b), 0);
models.sort((a, b) => b.correct - a.correct || used(a) - used(b) || total(a) - total(b));

const ceiling = answerable.filter((t) => t.correct).length;
console.log(
  `${trace.length} traced (${answerable.length} answerable, ${unanswerable.length} unanswerable); ` +
    `answering all: ${ceiling} correct`,
);
for (const m of models.slice(0, 12))
  console.log(
    `σ(${m.bias.toFixed(3)} ${features.map((f, i) => (m.weights[i] ? `+ ${m.weights[i]} × ${f}` : '')).join(' ')}): ` +
      `${m.correct}/${answerable.length} correct (${(m.correct / (answerable.length || 1)).toFixed(3)}), ` +
      `abstained ${m.abstained}/${unanswerable.length}`,
  );
const shipped = (name: string, model: ConfidenceModel) => {
  const answers = (t: Traced) => shouldAnswer(t.evidence!, model);
  console.log(
    `${name}: ${answerable.filter((t) => t.correct && answers(t)).length}/${answerable.length} correct, ` +
      `abstained ${unanswerable.filter((t) => !answers(t)).length}/${unanswerable.length}`,
  );
};
shipped('shipped CALIBRATED_CONFIDENCE (lexical)', CALIBRATED_CONFIDENCE);
shipped('shipped NEURAL_CONFIDENCE', NEURAL_CONFIDENCE);
