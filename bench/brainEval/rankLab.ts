/**
 * A learning-to-rank lab for the auto route (issue 36, item 3): ingests each corpus once through the evaluation
 * platform, and for every answerable **tuning** question records the candidates the current auto route hands its
 * reranker, each with the reranker's features (ai/rerank/offlineReranker `FEATURE_NAMES`), its rank in each
 * strategy's own list and whether the judge finds it relevant. It then fits linear rankers over feature sets (a
 * pairwise logistic loss, and coordinate ascent on the metric), scores each by leave-one-corpus-out (fit on the other
 * corpora's tuning questions, score this one's) and in sample, and prints recall@5 and MRR@10 per corpus beside the
 * current weights. The held-out half is never read.
 * Run: npx tsx bench/brainEval/rankLab.ts [--corpora=fastify,flame] [--save=features.json] [--load=features.json]
 *   [--positives=1] [--lambda=0.01]
 */
import fs from 'node:fs';
import { withoutTypeWord } from '../../ai/rerank/answerType';
import {
  DEFAULT_RERANKER_OPTIONS,
  FEATURE_NAMES,
  maximalMarginalRelevance,
  type Reranker,
} from '../../ai/rerank/offlineReranker';
import { AdaptiveRouter } from '../../ai/router/adaptiveRouter';
import type { Hit, StrategyName } from '../../ai/retrieval/hit';
import { loadCorpora, PassageJudge } from './corpusSet';
import { ingestedPlatform } from './labPlatform';

const LISTS: StrategyName[] = ['hyde', 'hybrid', 'fulltext', 'semantic', 'graph'];
const LIST_DEPTH = 200;
const ALL_FEATURES = [...FEATURE_NAMES, ...LISTS.map((name) => `rank:${name}`)];

interface Candidate {
  values: number[];
  documentId: string;
  terms: number[];
  relevant: boolean;
}
interface Question {
  corpus: string;
  id: string;
  candidates: Candidate[];
}

function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function collect(only?: string[]): Promise<Question[]> {
  const questions: Question[] = [];
  for (const corpus of loadCorpora().filter((c) => !only || only.includes(c.name))) {
    const { platform, ingest, router } = await ingestedPlatform(corpus);
    try {
      let handed: Hit[] = [];
      const capture: Reranker = (query, hits, limit, ranks) => {
        handed = [...hits];
        return router.reranker(query, hits, limit, ranks);
      };
      const route = new AdaptiveRouter(router.strategies, capture, router.options);
      const judge = new PassageJudge(corpus.root);
      const tuning = corpus.questions.filter((q) => q.split === 'tuning' && q.kind !== 'unanswerable');
      for (const q of tuning) {
        await route.search(q.question, { limit: 10 });
        const searched = withoutTypeWord(q.question);
        const positions = await Promise.all(
          LISTS.map(async (name) => {
            const at = new Map<string, number>();
            const strategy = router.strategies[name];
            if (!strategy) return at;
            const hits = await strategy(searched, { limit: LIST_DEPTH, snippets: false });
            hits.forEach((hit, i) => at.has(hit.chunkId) || at.set(hit.chunkId, i + 1));
            return at;
          }),
        );
        const features = router.reranker.features(q.question, handed) ?? [];
        questions.push({
          corpus: corpus.name,
          id: q.id,
          candidates: features.map(({ hit, values, terms }) => ({
            values: [
              ...values,
              ...positions.map((at) => (at.has(hit.chunkId) ? 1 / Math.sqrt(at.get(hit.chunkId)!) : 0)),
            ],
            documentId: hit.documentId,
            terms: [...terms],
            relevant: judge.relevant(
              { source: hit.source, start_line: hit.startLine, end_line: hit.endLine },
              q,
            ),
          })),
        });
      }
      console.log(`${corpus.name}: ${ingest.chunks} chunks, ${tuning.length} tuning questions recorded`);
    } finally {
      await platform.stop();
    }
  }
  return questions;
}

/** Recall@5 and MRR@10 of a linear ranker (weights over `used` features) followed by the reranker's MMR. */
function score(questions: Question[], weights: number[], used: number[]): { r5: number; mrr: number } {
  let r5 = 0;
  let mrr = 0;
  for (const q of questions) {
    const scored = q.candidates.map((c, i) => ({
      hit: { chunkId: String(i), documentId: c.documentId } as Hit,
      score: used.reduce((s, f, k) => s + weights[k] * c.values[f], 0),
      terms: Uint32Array.from(c.terms),
    }));
    const top = maximalMarginalRelevance(scored, 10, DEFAULT_RERANKER_OPTIONS.mmrLambda);
    const at = top.findIndex((h) => q.candidates[Number(h.chunkId)].relevant);
    if (at >= 0 && at < 5) r5++;
    if (at >= 0) mrr += 1 / (at + 1);
  }
  const n = questions.length || 1;
  return { r5: r5 / n, mrr: mrr / n };
}

/**
 * Fits a linear ranker by pairwise logistic loss (RankNet with a linear scorer) with L2 `lambda`: the relevant
 * candidates the current weights rank highest (`--positives`, 1) against the 30 irrelevant ones they rank highest,
 * each question weighing the same within its corpus and each corpus the same. The weights are scaled to the current
 * weights' L1 norm, so MMR trades relevance for novelty at the same rate.
 */
function fit(questions: Question[], used: number[], lambda = 0.01, rounds = 400): number[] {
  const current = FEATURE_NAMES.map((name) => DEFAULT_RERANKER_OPTIONS[name]);
  const currentScore = (c: Candidate) => current.reduce((s, w, f) => s + w * c.values[f], 0);
  const perCorpus = new Map<string, number>();
  for (const q of questions) perCorpus.set(q.corpus, (perCorpus.get(q.corpus) ?? 0) + 1);
  const pairs: { diff: number[]; weight: number }[] = [];
  for (const q of questions) {
    // Judged by file, every chunk of an answer page is relevant, most of them not about the question: the pairs
    // take the relevant candidates the current weights rank highest.
    const positives = q.candidates
      .filter((c) => c.relevant)
      .sort((a, b) => currentScore(b) - currentScore(a))
      .slice(0, POSITIVES);
    const negatives = q.candidates
      .filter((c) => !c.relevant)
      .sort((a, b) => currentScore(b) - currentScore(a))
      .slice(0, 30);
    if (!positives.length || !negatives.length) continue;
    const weight = 1 / (perCorpus.get(q.corpus)! * positives.length * negatives.length);
    for (const p of positives)
      for (const n of negatives) pairs.push({ diff: used.map((f) => p.values[f] - n.values[f]), weight });
  }
  const total = pairs.reduce((s, p) => s + p.weight, 0) || 1;
  let w = used.map((f) => (f < current.length ? current[f] : 0));
  for (let round = 0; round < rounds; round++) {
    const gradient = w.map((x) => lambda * x);
    for (const { diff, weight } of pairs) {
      const margin = diff.reduce((s, d, k) => s + d * w[k], 0);
      const g = -weight / total / (1 + Math.exp(margin));
      diff.forEach((d, k) => (gradient[k] += g * d));
    }
    w = w.map((x, k) => x - 2 * gradient[k]);
  }
  const norm = w.reduce((s, x) => s + Math.abs(x), 0) || 1;
  const target = current.reduce((s, x) => s + Math.abs(x), 0);
  return w.map((x) => (x * target) / norm);
}

/**
 * Coordinate ascent on the metric itself (as RankLib's): from the current weights (0 for the list ranks), each
 * weight in turn is scaled or set to a few values and kept where the mean over corpora of recall@5 + MRR@10 rises;
 * `rounds` passes.
 */
function ascend(questions: Question[], used: number[], rounds = 3): number[] {
  const current = FEATURE_NAMES.map((name) => DEFAULT_RERANKER_OPTIONS[name]);
  const corpora = [...new Set(questions.map((q) => q.corpus))];
  const groups = corpora.map((c) => questions.filter((q) => q.corpus === c));
  const objective = (w: number[]) =>
    groups.reduce((sum, g) => {
      const { r5, mrr } = score(g, w, used);
      return sum + r5 + mrr;
    }, 0);
  let w = used.map((f) => (f < current.length ? current[f] : 0));
  let best = objective(w);
  for (let round = 0; round < rounds; round++) {
    let moved = false;
    for (let k = 0; k < w.length; k++) {
      const tries = [0, 0.5, 0.75, 1.25, 1.5, 2].map((x) => w[k] * x).concat([0.05, 0.1, 0.2, 0.35]);
      for (const value of tries) {
        const next = [...w];
        next[k] = value;
        const figure = objective(next);
        if (figure > best + 1e-9) {
          best = figure;
          w = next;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return w;
}

const POSITIVES = Number(flag('positives') ?? 1);

const SETS: Record<string, string[]> = {
  'reranker only': [...FEATURE_NAMES],
  'reranker + list ranks': ALL_FEATURES,
  'reranker + list ranks, no graph': ALL_FEATURES.filter((f) => f !== 'rank:graph'),
  'reranker + hyde, hybrid ranks': [...FEATURE_NAMES, 'rank:hyde', 'rank:hybrid'],
  'list ranks for the prior': ALL_FEATURES.filter((f) => f !== 'prior' && f !== 'rank:graph'),
};

async function main(): Promise<void> {
  const load = flag('load');
  const questions = load
    ? (JSON.parse(fs.readFileSync(load, 'utf8')) as Question[])
    : await collect(flag('corpora')?.split(','));
  const save = flag('save');
  if (save) fs.writeFileSync(save, JSON.stringify(questions));
  const corpora = [...new Set(questions.map((q) => q.corpus))];
  const of = (corpus: string) => questions.filter((q) => q.corpus === corpus);
  const print = (name: string, figures: { r5: number; mrr: number }[]) => {
    const mean = (k: 'r5' | 'mrr') => figures.reduce((s, f) => s + f[k], 0) / figures.length;
    console.log(
      `${name.padEnd(44)} ${figures.map((f) => `${f.r5.toFixed(3)} / ${f.mrr.toFixed(3)}`).join('  ')}  ` +
        `mean ${mean('r5').toFixed(3)} / ${mean('mrr').toFixed(3)}`,
    );
  };
  console.log(`\ntuning half, R@5 / MRR@10 per corpus (${corpora.join(', ')}):`);
  const current = FEATURE_NAMES.map((name) => DEFAULT_RERANKER_OPTIONS[name]);
  print(
    'current weights',
    corpora.map((c) =>
      score(
        of(c),
        current,
        current.map((_, f) => f),
      ),
    ),
  );
  const lambda = Number(flag('lambda') ?? 0.01);
  for (const [name, features] of Object.entries(SETS)) {
    const used = features.map((f) => ALL_FEATURES.indexOf(f));
    print(
      `${name}, leave one corpus out`,
      corpora.map((c) =>
        score(
          of(c),
          fit(
            questions.filter((q) => q.corpus !== c),
            used,
            lambda,
          ),
          used,
        ),
      ),
    );
    print(
      `${name}, ascent, leave one corpus out`,
      corpora.map((c) =>
        score(
          of(c),
          ascend(
            questions.filter((q) => q.corpus !== c),
            used,
          ),
          used,
        ),
      ),
    );
    const ascended = ascend(questions, used);
    print(
      `${name}, ascent on all (in sample)`,
      corpora.map((c) => score(of(c), ascended, used)),
    );
    console.log(`  weights: ${features.map((f, k) => `${f} ${ascended[k].toFixed(3)}`).join(', ')}`);
    const all = fit(questions, used, lambda);
    print(
      `${name}, fitted on all (in sample)`,
      corpora.map((c) => score(of(c), all, used)),
    );
    console.log(`  weights: ${features.map((f, k) => `${f} ${all[k].toFixed(3)}`).join(', ')}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
