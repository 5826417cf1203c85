/**
 * Fits /brain/ask's abstention model (ai/answer/answerConfidence.ts) on a trace of the tuning half written by
 * bench/brainEval/routerLab.ts --trace-ask: every question answered once, with its evidence features and whether
 * the answer cited a relevant passage. A grid over the feature weights; for each, the cut-off that answers the most
 * answerable questions correctly while abstaining on at least `--abstain` (default 0.9) of the unanswerable ones.
 * Prints the best models, the simplest first among equals (fewer features used, then smaller weights).
 * Run: npx tsx bench/brainEval/fitConfidence.ts trace.json [--variant=name] [--abstain=0.9]
 */
import fs from 'node:fs';
import type { EvidenceFeatures } from '../../ai/answer/answerConfidence';

interface Traced {
  corpus: string;
  variant: string;
  id: string;
  kind: string;
  correct: boolean;
  evidence?: EvidenceFeatures;
}

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const file = process.argv[2];
const variant = flag('variant');
const minAbstain = Number(flag('abstain') ?? '0.9');
const trace = (JSON.parse(fs.readFileSync(file, 'utf8')) as Traced[]).filter(
  (t) => (!variant || t.variant === variant) && t.evidence,
);
const answerable = trace.filter((t) => t.kind !== 'unanswerable');
const unanswerable = trace.filter((t) => t.kind === 'unanswerable');
const steps = (to: number, by: number) => Array.from({ length: Math.round(to / by) + 1 }, (_, i) => i * by);

type Model = {
  sentence: number;
  top: number;
  agreement: number;
  bias: number;
  correct: number;
  abstained: number;
};
const models: Model[] = [];
for (const ws of steps(8, 0.5))
  for (const wt of steps(4, 0.5))
    for (const wa of steps(4, 0.5)) {
      if (ws + wt + wa === 0) continue;
      const z = (t: Traced) => ws * t.evidence!.sentence + wt * t.evidence!.top + wa * t.evidence!.agreement;
      const cuts = [...new Set(trace.map(z))].sort((a, b) => a - b);
      let best: Model | undefined;
      for (const cut of cuts) {
        const answers = (t: Traced) => t.evidence!.names === 0 && z(t) >= cut;
        const abstained = unanswerable.filter((t) => !answers(t)).length;
        if (abstained < minAbstain * unanswerable.length) continue;
        const correct = answerable.filter((t) => t.correct && answers(t)).length;
        if (!best || correct > best.correct)
          best = { sentence: ws, top: wt, agreement: wa, bias: -cut, correct, abstained };
        break; // the lowest cut-off meeting the abstention bound answers the most
      }
      if (best) models.push(best);
    }
const used = (m: Model) => [m.sentence, m.top, m.agreement].filter((w) => w > 0).length;
models.sort(
  (a, b) =>
    b.correct - a.correct ||
    used(a) - used(b) ||
    a.sentence + a.top + a.agreement - (b.sentence + b.top + b.agreement),
);
const ceiling = answerable.filter((t) => t.correct).length;
console.log(
  `${trace.length} traced (${answerable.length} answerable, ${unanswerable.length} unanswerable); ` +
    `answering all: ${ceiling} correct`,
);
for (const m of models.slice(0, 12))
  console.log(
    `σ(${m.bias.toFixed(3)} + ${m.sentence} × sentence + ${m.top} × top + ${m.agreement} × agreement): ` +
      `${m.correct}/${answerable.length} correct (${(m.correct / (answerable.length || 1)).toFixed(3)}), ` +
      `abstained ${m.abstained}/${unanswerable.length}`,
  );
const current = (t: Traced) =>
  t.evidence!.names === 0 && 4 * t.evidence!.sentence + 2 * t.evidence!.top >= 3.25;
console.log(
  `current model (4 × sentence + 2 × top ≥ 3.25): ${answerable.filter((t) => t.correct && current(t)).length}/` +
    `${answerable.length} correct, abstained ${unanswerable.filter((t) => !current(t)).length}/${unanswerable.length}`,
);
