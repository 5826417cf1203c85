/**
 * A tuning bench for the router (issue 36): ingests each corpus once through the evaluation platform, then scores
 * router variants on the tuning half only, in process, against the same strategies and reranker the platform
 * built (each strategy's list is computed once per question and depth, and shared by every variant). A variant is
 * a set of AdaptiveRouter options (bench/brainEval/routerVariants.ts). The held-out half is never read here: the
 * figures that count come from bench/brainEvalCorpora.ts --split=heldout.
 * Before the variants it prints each strategy's real MRR@10 on the tuning half (its own list, not reranked) and,
 * per pseudo-query kind (ai/router/routerCalibration), the MRR the calibration measures and its Spearman
 * correlation with the real one; variants that read the calibration are scored once per kind.
 * Run: npx tsx bench/brainEval/routerLab.ts [--corpora=fastify,flame] [--variants=current,anchored]
 *   [--kinds=sentence,common,heading,mixed] [--route-pseudo]
 */
import fs from 'node:fs';
import { CALIBRATED_CONFIDENCE, NEURAL_CONFIDENCE } from '../../ai/answer/answerConfidence';
import { buildContext, type ContextPassage } from '../../ai/answer/contextBuilder';
import type { ScoredSentence } from '../../ai/llm/extractiveGenerator';
import { QuestionAnswerer } from '../../ai/answer/questionAnswerer';
import { FullTextIndex } from '../../ai/fulltext/fullTextIndex';
import { AdaptiveRouter } from '../../ai/router/adaptiveRouter';
import { pseudoQueries, RouterCalibrator, type PseudoQueryKind } from '../../ai/router/routerCalibration';
import type { Hit, SearchStrategy, StrategyName } from '../../ai/retrieval/hit';
import { loadCorpora, PassageJudge } from './corpusSet';
import { ingestedPlatform } from './labPlatform';
import { CALIBRATED_VARIANTS, ROUTER_VARIANTS, type LabSuite } from './routerVariants';

/** Strategies the calibration measures, and those that may anchor a route. */
const MEASURED: StrategyName[] = ['fulltext', 'semantic', 'hyde', 'hybrid', 'graph'];
const ANCHOR_CANDIDATES: StrategyName[] = ['hybrid', 'hyde', 'fulltext', 'semantic'];

const format = (mrr: Partial<Record<StrategyName, number>>) =>
  MEASURED.map((name) => `${name} ${(mrr[name] ?? 0).toFixed(3)}`).join(', ');

/** Spearman's rank correlation of two strategy scorings over MEASURED (ties ranked by their mean rank). */
function spearman(
  a: Partial<Record<StrategyName, number>>,
  b: Partial<Record<StrategyName, number>>,
): number {
  const ranks = (x: Partial<Record<StrategyName, number>>) => {
    const values = MEASURED.map((n) => x[n] ?? 0);
    return values.map((v) => {
      const above = values.filter((w) => w > v).length;
      const equal = values.filter((w) => w === v).length;
      return above + (equal + 1) / 2;
    });
  };
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  ra.forEach((x, i) => {
    num += (x - ma) * (rb[i] - mb);
    da += (x - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  });
  return da && db ? num / Math.sqrt(da * db) : 0;
}

let fullText: FullTextIndex | undefined;
const catchIndex = (index: FullTextIndex) => (fullText = index);
const ftSearch = FullTextIndex.prototype.search;
FullTextIndex.prototype.search = function (this: FullTextIndex, ...args) {
  catchIndex(this);
  return ftSearch.apply(this, args);
};
let answerer: QuestionAnswerer | undefined;
const catchAnswerer = (instance: QuestionAnswerer) => (answerer = instance);
const ask = QuestionAnswerer.prototype.ask;
QuestionAnswerer.prototype.ask = function (this: QuestionAnswerer, ...args) {
  catchAnswerer(this);
  return ask.apply(this, args);
};

/** Strategies whose answers are kept per query and options, so every variant reads the same lists. */
function memoised(strategies: Partial<Record<StrategyName, SearchStrategy>>) {
  const cache = new Map<string, Promise<Hit[]>>();
  return Object.fromEntries(
    Object.entries(strategies).map(([name, strategy]) => [
      name,
      ((query, options = {}) => {
        const key = `${name}\u0000${query}\u0000${options.limit}\u0000${options.indexes?.join(',') ?? ''}`;
        let hits = cache.get(key);
        if (!hits) {
          hits = strategy!(query, { ...options, onPartialFailure: undefined });
          cache.set(key, hits);
        }
        return hits;
      }) as SearchStrategy,
    ]),
  ) as Partial<Record<StrategyName, SearchStrategy>>;
}

function listFlag(name: string): string[] | undefined {
  return process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
    .split(',');
}

async function main(): Promise<void> {
  const only = listFlag('corpora');
  const variantNames = listFlag('variants') ?? Object.keys(ROUTER_VARIANTS);
  // A kind, optionally with the most content words a sentence's pseudo-query keeps: `common:5`.
  const kinds = (listFlag('kinds') ?? ['sentence', 'common', 'common:5', 'heading', 'mixed', 'mixed:5']).map(
    (spec) => {
      const [kind, words] = spec.split(':');
      return { spec, kind: kind as PseudoQueryKind, ...(words ? { maxWords: Number(words) } : {}) };
    },
  );
  const traceAsk = listFlag('trace-ask');
  const routePseudo = process.argv.includes('--route-pseudo');
  const trace: unknown[] = [];
  const totals = new Map<string, { r5: number; mrr: number; corpora: number }>();
  for (const corpus of loadCorpora().filter((c) => !only || only.includes(c.name))) {
    const { platform, ingest, router } = await ingestedPlatform(corpus);
    try {
      await platform.post('/brain/ask', { question: 'warm up?' });
      const strategies = memoised(router.strategies);
      const index = fullText!;
      const judge = new PassageJudge(corpus.root);
      const tuning = corpus.questions.filter((q) => q.split === 'tuning' && q.kind !== 'unanswerable');
      console.log(`\n=== ${corpus.name}: ${ingest.chunks} chunks, ${tuning.length} tuning questions ===`);
      // The strategies' real ranking on the tuning half: MRR@10 of each strategy's own list (not reranked), the
      // lists the router fuses; what a pseudo-query generator has to predict.
      const real: Partial<Record<StrategyName, number>> = {};
      for (const name of MEASURED) {
        let sum = 0;
        for (const q of tuning) {
          const hits = await strategies[name]!(q.question, { limit: 10, snippets: false });
          const rank = judge.firstRelevantRank(
            hits.map((h) => ({ source: h.source, start_line: h.startLine, end_line: h.endLine })),
            q,
          );
          if (rank !== undefined) sum += 1 / rank;
        }
        real[name] = sum / (tuning.length || 1);
      }
      console.log(`real MRR@10, lists not reranked: ${format(real)}`);
      const calibrations: {
        kind: string;
        weights?: Partial<Record<StrategyName, number>>;
        strongest?: StrategyName;
      }[] = [];
      for (const { spec, ...kind } of kinds) {
        const calibrator = new RouterCalibrator({
          chunks: () => index.allChunks(),
          idf: (t) => index.idf(t),
          documentFrequency: (t) => index.documentFrequency(t),
          strategies,
          names: MEASURED,
          options: kind,
        });
        const queries = pseudoQueries(
          index.allChunks(),
          { idf: (t) => index.idf(t), documentFrequency: (t) => index.documentFrequency(t) },
          kind,
        );
        const started = performance.now();
        const cpu = process.cpuUsage();
        await calibrator.calibrate();
        const cpuSeconds = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(cpu));
        const mrr = calibrator.mrr() ?? {};
        const strongest = ANCHOR_CANDIDATES.reduce((a, b) => ((mrr[b] ?? 0) > (mrr[a] ?? 0) ? b : a));
        console.log(
          `calibration ${spec.padEnd(8)} ${queries.length} queries, ${((performance.now() - started) / 1000).toFixed(1)} s, CPU ${cpuSeconds.toFixed(1)} s: ` +
            `MRR ${format(mrr)}; Spearman with real ${spearman(mrr, real).toFixed(2)}; strongest ${strongest}; ` +
            `e.g. ${queries
              .slice(0, 3)
              .map((q) => JSON.stringify(q.query))
              .join(', ')}`,
        );
        calibrations.push({ kind: spec, weights: calibrator.weights(), strongest });
      }
      const base: LabSuite = { strategies, reranker: router.reranker, options: router.options ?? {} };
      const runs = variantNames.flatMap((name) =>
        CALIBRATED_VARIANTS.has(name)
          ? calibrations.map((c) => ({
              name: `${name} [${c.kind}]`,
              variant: ROUTER_VARIANTS[name],
              suite: { ...base, calibration: c.weights, strongest: c.strongest },
            }))
          : [{ name, variant: ROUTER_VARIANTS[name], suite: base }],
      );
      // --per-question: each tuning question's first relevant rank (0 = not in the first 10) per variant.
      const perQuestion = new Map<string, Map<string, number>>();
      for (const { name, variant, suite } of runs) {
        const routed = variant(suite);
        const ranks = new Map<string, number>();
        perQuestion.set(name, ranks);
        let r5 = 0;
        let mrr = 0;
        const fellBack = { n: 0 };
        for (const q of tuning) {
          const { hits, route } = await routed.search(q.question, { limit: 10 });
          if (route.reason.includes('disagreed')) fellBack.n++;
          const rank = judge.firstRelevantRank(
            hits.map((h) => ({ source: h.source, start_line: h.startLine, end_line: h.endLine })),
            q,
          );
          if (rank !== undefined && rank <= 5) r5++;
          if (rank !== undefined) mrr += 1 / rank;
          ranks.set(q.id, rank ?? 0);
        }
        const n = tuning.length || 1;
        console.log(
          `${name.padEnd(40)} R@5 ${(r5 / n).toFixed(3)}  MRR@10 ${(mrr / n).toFixed(3)}  fell back ${fellBack.n}`,
        );
        // --route-pseudo: the whole route (fused, reranked) scored on each kind's pseudo-queries, to see whether
        // pseudo-queries rank routes as the real questions do.
        if (routePseudo)
          for (const { spec, ...kind } of kinds) {
            const queries = pseudoQueries(
              index.allChunks(),
              { idf: (t) => index.idf(t), documentFrequency: (t) => index.documentFrequency(t) },
              kind,
            );
            let sum = 0;
            for (const q of queries) {
              const { hits } = await routed.search(q.query, { limit: 10 });
              const at = hits.findIndex((hit) => hit.documentId === q.documentId);
              if (at >= 0) sum += 1 / (at + 1);
            }
            console.log(`  pseudo ${spec.padEnd(9)} MRR@10 ${(sum / (queries.length || 1)).toFixed(3)}`);
          }
        if (traceAsk?.includes(name)) {
          const deps = (answerer as unknown as { deps: ConstructorParameters<typeof QuestionAnswerer>[0] })
            .deps;
          const tracer = new QuestionAnswerer(
            { ...deps, router: routed as AdaptiveRouter },
            {
              confidence: { ...NEURAL_CONFIDENCE, threshold: 0 },
              lexicalConfidence: { ...CALIBRATED_CONFIDENCE, threshold: 0 },
            },
          );
          for (const q of corpus.questions.filter((x) => x.split === 'tuning')) {
            const result = await tracer.ask({ question: q.question });
            const correct =
              result.grounded &&
              result.citations.some((c) =>
                judge.relevant({ source: c.source, start_line: c.startLine, end_line: c.endLine }, q),
              );
            const { hits } = await routed.search(q.question, { limit: 8 });
            const passages = buildContext(hits);
            const extractive = (
              tracer as unknown as {
                extractive: {
                  options: { relevanceWeight: number };
                  rank(q: string, p: ContextPassage[], w: number): ScoredSentence[];
                };
              }
            ).extractive;
            const sentences = extractive.rank(q.question, passages, extractive.options.relevanceWeight);
            trace.push({
              corpus: corpus.name,
              variant: name,
              id: q.id,
              kind: q.kind,
              question: q.question,
              correct,
              evidence: result.evidence,
              answer: result.answer,
              cited: result.citations.map((c) => c.quote),
              sentences: sentences
                .filter((x) => x.relevance > 0)
                .map((x) => ({ n: x.n, score: x.score, relevance: x.relevance, text: x.text })),
              passages: passages.map((p) => ({
                text: p.text,
                title: p.hit.title,
                score: p.hit.score,
                relevant: judge.relevant(
                  { source: p.hit.source, start_line: p.hit.startLine, end_line: p.hit.endLine },
                  q,
                ),
              })),
            });
          }
        }
        const total = totals.get(name) ?? { r5: 0, mrr: 0, corpora: 0 };
        totals.set(name, { r5: total.r5 + r5 / n, mrr: total.mrr + mrr / n, corpora: total.corpora + 1 });
      }
      if (process.argv.includes('--per-question')) {
        const names = [...perQuestion.keys()];
        console.log(`per question, first relevant rank (0: none in 10): ${names.join(' | ')}`);
        for (const q of tuning) {
          const row = names.map((name) => perQuestion.get(name)!.get(q.id) ?? 0);
          if (new Set(row).size > 1) console.log(`  ${q.id.padEnd(14)} ${row.join(' ')}  ${q.question}`);
        }
      }
    } finally {
      await platform.stop();
    }
  }
  if (traceAsk) fs.writeFileSync(listFlag('trace-file')?.[0] ?? 'ask-trace.json', JSON.stringify(trace));
  console.log('\n=== tuning mean ===');
  for (const [name, t] of totals)
    console.log(
      `${name.padEnd(40)} R@5 ${(t.r5 / t.corpora).toFixed(3)}  MRR@10 ${(t.mrr / t.corpora).toFixed(3)}`,
    );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
