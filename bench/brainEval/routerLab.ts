/**
 * A tuning bench for the router (issue 36): ingests each corpus once through the evaluation platform, then scores
 * router variants on the tuning half only, in process, against the same strategies and reranker the platform
 * built (each strategy's list is computed once per question and depth, and shared by every variant). A variant is
 * a set of AdaptiveRouter options (bench/brainEval/routerVariants.ts). The held-out half is never read here: the
 * figures that count come from bench/brainEvalCorpora.ts --split=heldout.
 * Run: npx tsx bench/brainEval/routerLab.ts [--corpora=fastify,flame] [--variants=current,anchored]
 */
import fs from 'node:fs';
import { CALIBRATED_CONFIDENCE, NEURAL_CONFIDENCE } from '../../ai/answer/answerConfidence';
import { buildContext, type ContextPassage } from '../../ai/answer/contextBuilder';
import type { ScoredSentence } from '../../ai/llm/extractiveGenerator';
import { QuestionAnswerer } from '../../ai/answer/questionAnswerer';
import { FullTextIndex } from '../../ai/fulltext/fullTextIndex';
import { AdaptiveRouter } from '../../ai/router/adaptiveRouter';
import { RouterCalibrator } from '../../ai/router/routerCalibration';
import type { Reranker } from '../../ai/rerank/offlineReranker';
import type { Hit, SearchStrategy, StrategyName } from '../../ai/retrieval/hit';
import { loadCorpora, PassageJudge } from './corpusSet';
import { startEvalPlatform } from './evalPlatform';
import { ROUTER_VARIANTS, type LabSuite } from './routerVariants';

/** The router the platform builds, caught on its first search (the lab reads its strategies and reranker). */
let caught: AdaptiveRouter | undefined;
const catchRouter = (router: AdaptiveRouter) => (caught = router);
const search = AdaptiveRouter.prototype.search;
AdaptiveRouter.prototype.search = function (this: AdaptiveRouter, ...args) {
  catchRouter(this);
  return search.apply(this, args);
};

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
  const traceAsk = listFlag('trace-ask');
  const trace: unknown[] = [];
  const totals = new Map<string, { r5: number; mrr: number; corpora: number }>();
  for (const corpus of loadCorpora().filter((c) => !only || only.includes(c.name))) {
    const platform = await startEvalPlatform();
    try {
      const ingest = await platform.ingest(corpus);
      await platform.post('/brain/search/v2', { query: 'warm up', limit: 1 });
      const router = caught as unknown as {
        strategies: Partial<Record<StrategyName, SearchStrategy>>;
        reranker: Reranker;
        options: ConstructorParameters<typeof AdaptiveRouter>[2];
      };
      await platform.post('/brain/ask', { question: 'warm up?' });
      const strategies = memoised(router.strategies);
      const index = fullText!;
      const calibrator = new RouterCalibrator({
        chunks: () => index.allChunks(),
        idf: (t) => index.idf(t),
        strategies,
        names: ['fulltext', 'semantic', 'hyde', 'hybrid', 'graph'],
      });
      const started = performance.now();
      await calibrator.calibrate();
      console.log(
        `calibration ${((performance.now() - started) / 1000).toFixed(1)} s: MRR ${JSON.stringify(calibrator.mrr())}`,
      );
      const suite: LabSuite = {
        strategies,
        reranker: router.reranker,
        options: router.options ?? {},
        calibration: calibrator.weights(),
      };
      const judge = new PassageJudge(corpus.root);
      const tuning = corpus.questions.filter((q) => q.split === 'tuning' && q.kind !== 'unanswerable');
      console.log(`\n=== ${corpus.name}: ${ingest.chunks} chunks, ${tuning.length} tuning questions ===`);
      for (const name of variantNames) {
        const variant = ROUTER_VARIANTS[name];
        const routed = variant(suite);
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
        }
        const n = tuning.length || 1;
        console.log(
          `${name.padEnd(28)} R@5 ${(r5 / n).toFixed(3)}  MRR@10 ${(mrr / n).toFixed(3)}  fell back ${fellBack.n}`,
        );
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
    } finally {
      await platform.stop();
    }
  }
  if (traceAsk) fs.writeFileSync(listFlag('trace-file')?.[0] ?? 'ask-trace.json', JSON.stringify(trace));
  console.log('\n=== tuning mean ===');
  for (const [name, t] of totals)
    console.log(
      `${name.padEnd(28)} R@5 ${(t.r5 / t.corpora).toFixed(3)}  MRR@10 ${(t.mrr / t.corpora).toFixed(3)}`,
    );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
