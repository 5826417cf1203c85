/**
 * Scores one corpus through the routes (bench/brainEvalCorpora.ts): recall@5 and MRR@10 of every
 * /brain/search/v2 strategy on the answerable questions, and for /brain/ask the share of answerable questions
 * answered with a citation of a relevant passage and the share of unanswerable ones it abstained on; each for
 * the tuning and the held-out half apart.
 */
import { V2_STRATEGIES } from '../../ai/router/adaptiveRouter';
import {
  PassageJudge,
  type CorpusQuestion,
  type EvalCorpus,
  type JudgedPassage,
  type Split,
} from './corpusSet';

/** Every strategy of /brain/search/v2, `auto` first. */
export const EVAL_STRATEGIES = V2_STRATEGIES;
export type EvalStrategy = (typeof EVAL_STRATEGIES)[number];

/** Recall@5 and MRR@10 over `n` answerable questions. */
export interface RankingFigures {
  n: number;
  recallAt5: number;
  mrr: number;
}

/** /brain/ask over a half: answered citing a relevant passage (of `answerable`), abstained (of `unanswerable`). */
export interface AskFigures {
  answerable: number;
  correctCited: number;
  answered: number;
  unanswerable: number;
  abstained: number;
}

/** A corpus's figures per half. */
export interface CorpusFigures {
  corpus: string;
  ranking: Record<Split, Record<EvalStrategy, RankingFigures>>;
  ask: Record<Split, AskFigures>;
  /** Per strategy run: each search's wall time (ms, p50 and p95) and the process's CPU per search (ms, every thread). */
  cost: Partial<Record<EvalStrategy, { p50: number; p95: number; cpuMs: number }>>;
  /** Answerable questions `auto` missed in its top 5, for --verbose. */
  autoMisses: string[];
  /** Per question: the first relevant rank of each strategy run, and the ask outcome (for --dump). */
  questions: QuestionOutcome[];
}

/** One question's outcome, as --dump writes it. */
export interface QuestionOutcome {
  id: string;
  split: Split;
  kind: string;
  ranks: Partial<Record<EvalStrategy, number | null>>;
  ask?: { grounded: boolean; correctCited: boolean };
}

type Post = <T>(route: string, body: unknown) => Promise<T>;
type SearchResponse = { hits: JudgedPassage[] };
type AskResponse = { grounded: boolean; citations: JudgedPassage[] };

const SPLITS: Split[] = ['tuning', 'heldout'];

/**
 * What a run measures. Defaults: both halves, every strategy, /brain/ask on. Iterations on the tuning half name
 * `splits: ['tuning']` and the strategies they compare; what is not run scores as zero.
 */
export interface ScoreScope {
  splits: Split[];
  strategies: readonly EvalStrategy[];
  ask: boolean;
}

/** Runs every question of the corpus (of the scope's halves) through the routes and scores it. */
export async function scoreCorpus(
  corpus: EvalCorpus,
  post: Post,
  scope: ScoreScope = { splits: SPLITS, strategies: EVAL_STRATEGIES, ask: true },
): Promise<CorpusFigures> {
  const judge = new PassageJudge(corpus.root);
  const inScope = corpus.questions.filter((q) => scope.splits.includes(q.split));
  const answerable = inScope.filter((q) => q.kind !== 'unanswerable');
  const ranks = new Map<EvalStrategy, Map<CorpusQuestion, number | undefined>>();
  for (const strategy of EVAL_STRATEGIES) ranks.set(strategy, new Map());
  const cost: CorpusFigures['cost'] = {};
  for (const strategy of scope.strategies) {
    const at = new Map<CorpusQuestion, number | undefined>();
    const walls: number[] = [];
    const cpu = process.cpuUsage();
    for (const q of answerable) {
      const started = performance.now();
      const response = await post<SearchResponse>('/brain/search/v2', {
        query: q.question,
        strategy,
        limit: 10,
      });
      walls.push(performance.now() - started);
      at.set(q, judge.firstRelevantRank(response.hits, q));
    }
    ranks.set(strategy, at);
    const used = process.cpuUsage(cpu);
    walls.sort((a, b) => a - b);
    const quantile = (p: number) => walls[Math.min(walls.length - 1, Math.floor(p * walls.length))] ?? 0;
    const cpuMs = (used.user + used.system) / 1000 / (walls.length || 1);
    cost[strategy] = { p50: quantile(0.5), p95: quantile(0.95), cpuMs };
  }
  const asked = new Map<CorpusQuestion, AskResponse>();
  const notAsked: AskResponse = { grounded: false, citations: [] };
  for (const q of inScope)
    asked.set(q, scope.ask ? await post<AskResponse>('/brain/ask', { question: q.question }) : notAsked);

  const ranking = {} as CorpusFigures['ranking'];
  const ask = {} as CorpusFigures['ask'];
  for (const split of SPLITS) {
    const half = answerable.filter((q) => q.split === split);
    ranking[split] = Object.fromEntries(
      EVAL_STRATEGIES.map((s) => [s, rankingFigures(half.map((q) => ranks.get(s)!.get(q)))]),
    ) as Record<EvalStrategy, RankingFigures>;
    const unanswerable = inScope.filter((q) => q.kind === 'unanswerable' && q.split === split);
    ask[split] = {
      answerable: half.length,
      correctCited: half.filter((q) => {
        const a = asked.get(q) ?? notAsked;
        return a.grounded && a.citations.some((c) => judge.relevant(c, q));
      }).length,
      answered: half.filter((q) => asked.get(q)?.grounded).length,
      unanswerable: unanswerable.length,
      abstained: unanswerable.filter((q) => !asked.get(q)?.grounded).length,
    };
  }
  const autoMisses = answerable
    .filter((q) => (ranks.get('auto')!.get(q) ?? 99) > 5)
    .map((q) => `${q.id} [${q.split}] (rank ${ranks.get('auto')!.get(q) ?? '-'}): ${q.question}`);
  const questions = inScope.map((q): QuestionOutcome => {
    const a = asked.get(q) ?? notAsked;
    return {
      id: q.id,
      split: q.split,
      kind: q.kind,
      ranks: Object.fromEntries(scope.strategies.map((s) => [s, ranks.get(s)!.get(q) ?? null])),
      ...(scope.ask
        ? { ask: { grounded: a.grounded, correctCited: a.citations.some((c) => judge.relevant(c, q)) } }
        : {}),
    };
  });
  return { corpus: corpus.name, ranking, ask, cost, autoMisses, questions };
}

function rankingFigures(ranks: Array<number | undefined>): RankingFigures {
  const n = ranks.length || 1;
  return {
    n: ranks.length,
    recallAt5: ranks.filter((r) => r !== undefined && r <= 5).length / n,
    mrr: ranks.reduce<number>((sum, r) => sum + (r ? 1 / r : 0), 0) / n,
  };
}

/** The unweighted mean over corpora of a half's figures (each corpus counts once, whatever its size). */
export function meanOver(
  figures: readonly CorpusFigures[],
  split: Split,
): {
  ranking: Record<EvalStrategy, { recallAt5: number; mrr: number }>;
  correctCitedRate: number;
  abstentionRate: number;
} {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / (values.length || 1);
  const ranking = Object.fromEntries(
    EVAL_STRATEGIES.map((s) => [
      s,
      {
        recallAt5: mean(figures.map((f) => f.ranking[split][s].recallAt5)),
        mrr: mean(figures.map((f) => f.ranking[split][s].mrr)),
      },
    ]),
  ) as Record<EvalStrategy, { recallAt5: number; mrr: number }>;
  return {
    ranking,
    correctCitedRate: mean(figures.map((f) => f.ask[split].correctCited / (f.ask[split].answerable || 1))),
    abstentionRate: mean(figures.map((f) => f.ask[split].abstained / (f.ask[split].unanswerable || 1))),
  };
}
