/**
 * Retrieval quality on corpora nobody tuned for (issue 36, item 1): for each corpus — the repository's own set
 * (`forge`) and the third-party documentation of bench/corpora/ — a platform with an empty brain on the embedded
 * defaults ingests the corpus through POST /brain/ingest, then every answerable question goes through
 * POST /brain/search/v2 with each strategy (recall@5, MRR@10) and every question through POST /brain/ask
 * (answered citing a relevant passage; abstained on the unanswerable). Each corpus prints its tuning and held-out
 * halves apart; the end prints the unweighted mean over corpora of each half. Only held-out figures are reported as
 * quality: tune on the tuning half, keep a ranking change only when the held-out mean improves.
 * The questions are validated first (bench/brainEval/corpusSet.ts); a bad set stops the run (exit 1).
 * Run: npx tsx bench/brainEvalCorpora.ts [--corpora=forge,fastify] [--split=tuning] [--strategies=auto,hybrid]
 *   [--no-ask] [--dump=file.json] [--verbose]; --split, --strategies and --no-ask narrow a tuning iteration (what is not run prints 0).
 */
import fs from 'node:fs';
import { corpusProblems, loadCorpora, type Split } from './brainEval/corpusSet';
import {
  EVAL_STRATEGIES,
  meanOver,
  scoreCorpus,
  type CorpusFigures,
  type EvalStrategy,
  type ScoreScope,
} from './brainEval/corpusScores';
import { startEvalPlatform } from './brainEval/evalPlatform';

const f3 = (x: number) => x.toFixed(3);
const HALVES: Array<[Split, string]> = [
  ['tuning', 'tuning'],
  ['heldout', 'held-out'],
];

function printCorpus(figures: CorpusFigures): void {
  const { ranking, ask } = figures;
  console.log(
    `${'strategy'.padEnd(10)} ${HALVES.map(([s, label]) => `${label} (n=${ranking[s].auto.n}) R@5  MRR@10`.padEnd(30)).join('')}`,
  );
  for (const strategy of EVAL_STRATEGIES) {
    const cells = HALVES.map(([s]) =>
      `${f3(ranking[s][strategy].recallAt5)}  ${f3(ranking[s][strategy].mrr)}`.padStart(26).padEnd(30),
    );
    const cost = figures.cost[strategy];
    const timing = cost
      ? `per search: wall p50 ${cost.p50.toFixed(1)} ms, p95 ${cost.p95.toFixed(1)} ms; CPU ${cost.cpuMs.toFixed(1)} ms`
      : '';
    console.log(`${strategy.padEnd(10)} ${cells.join('')}${timing}`);
  }
  for (const [s, label] of HALVES) {
    const a = ask[s];
    console.log(
      `/brain/ask ${label}: answered citing a relevant passage ${a.correctCited}/${a.answerable} ` +
        `(${f3(a.correctCited / (a.answerable || 1))}), answered at all ${a.answered}/${a.answerable}; ` +
        `abstained on ${a.abstained}/${a.unanswerable} unanswerable (${f3(a.abstained / (a.unanswerable || 1))})`,
    );
  }
}

function printMeans(all: CorpusFigures[]): void {
  console.log(
    `\n=== mean over ${all.length} corpora (${all.map((f) => f.corpus).join(', ')}), unweighted ===`,
  );
  console.log(
    `${'strategy'.padEnd(10)} ${HALVES.map(([, label]) => `${label} R@5  MRR@10`.padEnd(24)).join('')}`,
  );
  const means = Object.fromEntries(HALVES.map(([s]) => [s, meanOver(all, s)])) as Record<
    Split,
    ReturnType<typeof meanOver>
  >;
  for (const strategy of EVAL_STRATEGIES) {
    const cells = HALVES.map(([s]) =>
      `${f3(means[s].ranking[strategy].recallAt5)}  ${f3(means[s].ranking[strategy].mrr)}`
        .padStart(20)
        .padEnd(24),
    );
    console.log(`${strategy.padEnd(10)} ${cells.join('')}`);
  }
  for (const [s, label] of HALVES) {
    console.log(
      `/brain/ask ${label}: correct with citation ${f3(means[s].correctCitedRate)}, ` +
        `abstentions ${f3(means[s].abstentionRate)}`,
    );
  }
}

/** The value list of `--name=a,b`, or undefined. */
function listFlag(name: string): string[] | undefined {
  return process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',');
}

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const only = listFlag('corpora');
  const splits = listFlag('split') as Split[] | undefined;
  const strategies = listFlag('strategies') as EvalStrategy[] | undefined;
  const scope: ScoreScope = {
    splits: splits ?? ['tuning', 'heldout'],
    strategies: EVAL_STRATEGIES.filter((s) => !strategies || strategies.includes(s)),
    ask: !process.argv.includes('--no-ask'),
  };
  const corpora = loadCorpora().filter((c) => !only || only.includes(c.name));
  const problems = corpora.flatMap(corpusProblems);
  if (problems.length > 0) {
    console.error(`bad evaluation questions:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  const all: CorpusFigures[] = [];
  for (const corpus of corpora) {
    const platform = await startEvalPlatform();
    try {
      const ingest = await platform.ingest(corpus);
      const answerable = corpus.questions.filter((q) => q.kind !== 'unanswerable').length;
      console.log(
        `\n=== ${corpus.name}: ${ingest.documents} documents, ${ingest.chunks} chunks (ingest ` +
          `${ingest.seconds.toFixed(1)} s, graph and trees ready ${ingest.upkeepSeconds.toFixed(1)} s later); ` +
          `${answerable} answerable and ${corpus.questions.length - answerable} unanswerable questions ===`,
      );
      if (ingest.refused.length > 0)
        console.log(`refused at ingest (${ingest.refused.length}): ${ingest.refused.join(', ')}`);
      const figures = await scoreCorpus(corpus, platform.post, scope);
      printCorpus(figures);
      if (verbose) console.log(`auto misses:\n  ${figures.autoMisses.join('\n  ')}`);
      all.push(figures);
    } finally {
      await platform.stop();
    }
  }
  printMeans(all);
  const dump = listFlag('dump')?.[0];
  if (dump)
    fs.writeFileSync(
      dump,
      JSON.stringify(
        all.map((f) => ({ corpus: f.corpus, questions: f.questions })),
        null,
        1,
      ),
    );
}

// The embedded engines keep timers of their own after a stop: end the process once the figures are out.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
