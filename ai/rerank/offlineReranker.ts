import type { IndexName } from '../../models/corpusRecords';
import { indexForPath } from '../corpus/repositoryFiles';
import type { Hit } from '../retrieval/hit';
import { queryTerms } from '../text/terms';
import { expandQueryTerms } from '../text/synonyms';
import { queryTarget, type QueryTarget } from '../router/queryClassifier';
import { answerTypeOf, holdsAnswerType } from './answerType';
import { CandidateAnalyses } from './candidateAnalyses';

/**
 * Reorders candidate hits for a query; keeps at most `limit`. `ranks`, when given, is each candidate's rank (from 1)
 * for the rank prior instead of its position in `hits`: a routed search passes the best rank a candidate has in
 * any of the lists it fused (ai/router/routeFusion `bestRanks`).
 */
export type Reranker = (
  query: string,
  hits: readonly Hit[],
  limit: number,
  ranks?: readonly number[],
) => Promise<Hit[]>;

/** What the offline reranker reads: the corpus's inverse document frequencies and, optionally, authority. */
export interface OfflineRerankerDeps {
  idf: (term: string) => number;
  /** A document's citation authority in [0, 1) (`DocumentAuthority.of`); without it, no authority prior. */
  authority?: (documentId: string) => number;
  /** Where candidates' analyses are kept (default: a `CandidateAnalyses` of its default bounds). */
  analyses?: CandidateAnalyses;
}

/**
 * Offline reranker weights. Defaults (tuned on bench/brainEval, see ai/README.md): the candidate's rank in
 * its list (prior) 0.35, idf-weighted query coverage of the text 0.3 (WordNet synonyms count 0.5), term
 * proximity 0.15, title/heading/symbol/source match 0.2, target kind 0.25, citation authority of the
 * candidate's document 0.15, answer type 0.15; MMR λ 0.85 against chunks of the same document.
 */
export interface OfflineRerankerOptions {
  prior: number;
  coverage: number;
  proximity: number;
  title: number;
  /** Bonus for a candidate of the kind the query targets (prose for plain questions, code, tests). */
  target: number;
  /** Weight of the candidate's document authority (how many other documents cite it by file name). */
  authority: number;
  /** Bonus for a candidate holding a value of the kind the question asks for (ai/rerank/answerType). */
  answerType: number;
  mmrLambda: number;
}

export const DEFAULT_RERANKER_OPTIONS: OfflineRerankerOptions = {
  prior: 0.35,
  coverage: 0.3,
  proximity: 0.15,
  title: 0.2,
  target: 0.25,
  authority: 0.15,
  answerType: 0.15,
  mmrLambda: 0.85,
};

/** A candidate with its relevance score and its text's distinct term ids (ascending), as MMR reads it. */
export interface Scored {
  hit: Hit;
  score: number;
  terms: Uint32Array;
}

/** Whether the ascending `sorted` holds `id` (-1: an unknown term, held by none). */
function holds(sorted: Uint32Array, id: number): boolean {
  if (id < 0) return false;
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = sorted[mid];
    if (value === id) return true;
    if (value < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The offline reranker: scores each candidate by its prior rank, the share of the query's idf mass its text
 * covers (synonyms at half weight), how close together the query terms occur (smallest window holding the
 * matched terms), how much of the query its title, headings, symbols and source path match, whether it is of
 * the kind the query targets, how often other documents cite its document by file name and whether it states a
 * value of the kind the question asks for (a duration for "how long", a path for "which route"…); then
 * selects greedily by maximal marginal relevance, so near-duplicate chunks of one document do not crowd the
 * top. `score` of a reranked hit is its relevance score in [0, 1].
 * A candidate's terms are analysed once per chunk and kept as ids (`CandidateAnalyses`): a search then compares
 * numbers, not strings (the reranker was about a fifth of a v2 SIMPLE search's CPU; bench/README.md, issue 37).
 */
export function createOfflineReranker(
  deps: OfflineRerankerDeps,
  options: Partial<OfflineRerankerOptions> = {},
): Reranker & { features: RerankFeatures } {
  const w = { ...DEFAULT_RERANKER_OPTIONS, ...options };
  const weights = FEATURE_NAMES.map((name) => w[name]);
  const features = rerankFeatures(deps, w.answerType > 0);
  const reranker: Reranker = async (query, hits, limit, ranks) => {
    const analysed = features(query, hits, ranks);
    if (!analysed) return hits.slice(0, limit);
    const scored: Scored[] = analysed.map(({ hit, values, terms }) => {
      let score = 0;
      for (let f = 0; f < weights.length; f++) score += weights[f] * values[f];
      return { hit, score, terms };
    });
    return maximalMarginalRelevance(scored, limit, w.mmrLambda);
  };
  return Object.assign(reranker, { features });
}

/** The reranker's features of a candidate, in the order its score weighs them (`OfflineRerankerOptions`). */
export const FEATURE_NAMES = [
  'prior',
  'coverage',
  'proximity',
  'title',
  'target',
  'authority',
  'answerType',
] as const satisfies readonly (keyof OfflineRerankerOptions)[];

/** A candidate's feature values (`FEATURE_NAMES` order) and its text's distinct term ids, as MMR reads them. */
export interface CandidateFeatures {
  hit: Hit;
  values: readonly number[];
  terms: Uint32Array;
}

/**
 * Every candidate's features for a query: undefined when the query has no terms or there are no candidates (the
 * reranker then keeps the list's order). The term ids are views of the kept analyses, valid until the next search.
 */
export type RerankFeatures = (
  query: string,
  hits: readonly Hit[],
  ranks?: readonly number[],
) => CandidateFeatures[] | undefined;

function rerankFeatures(deps: OfflineRerankerDeps, answerTypes: boolean): RerankFeatures {
  const analyses = deps.analyses ?? new CandidateAnalyses();
  return (query, hits, ranks) => {
    const terms = [...queryTerms(query)];
    if (terms.length === 0 || hits.length === 0) return undefined;
    analyses.beginSearch();
    const analysed = hits.map((hit) => analyses.of(hit));
    const expansions = expandQueryTerms(query);
    const idf = terms.map((t) => deps.idf(t));
    const mass = idf.reduce((a, b) => a + b, 0) || 1;
    const ids = terms.map((t) => analyses.idOf(t));
    const expansionIds = terms.map((t) => (expansions.get(t) ?? []).map((s) => analyses.idOf(s)));
    const target = queryTarget(query);
    const wanted = answerTypes ? answerTypeOf(query) : undefined;
    return hits.map((hit, rank) => {
      const { body, distinct, title } = analysed[rank];
      let covered = 0;
      let titled = 0;
      for (let t = 0; t < terms.length; t++) {
        const weight = idf[t];
        if (holds(distinct, ids[t])) covered += weight;
        else if (expansionIds[t].some((s) => holds(distinct, s))) covered += weight * 0.5;
        if (holds(title, ids[t])) titled += weight;
      }
      // A plain array: one per candidate, about 4 ns to make against 45 ns for a Float64Array (Node 24).
      const values = [
        1 / Math.sqrt(ranks?.[rank] ?? rank + 1),
        covered / mass,
        proximity(body, distinct, ids),
        titled / mass,
        matchesTarget(hit, target) ? 1 : 0,
        deps.authority?.(hit.documentId) ?? 0,
        wanted && holdsAnswerType(hit.text, wanted) ? 1 : 0,
      ];
      return { hit, values, terms: distinct };
    });
  };
}

const TARGET_KIND: Record<QueryTarget, IndexName | undefined> = {
  prose: 'docs',
  code: 'code',
  tests: 'tests',
  any: undefined,
};

/**
 * Whether a candidate is of the kind the query targets. The kind follows the source's path where it names a
 * known file type (a markdown file ingested into any index is prose, a `*.test.ts` is a test), else the index.
 */
function matchesTarget(hit: Hit, target: QueryTarget): boolean {
  const kind = KNOWN_FILE_TYPE.test(hit.source) ? indexForPath(hit.source) : hit.index;
  return kind === TARGET_KIND[target];
}

const KNOWN_FILE_TYPE = /\.(md|markdown|mdx|txt|[cm]?[jt]sx?|sol|py|go|rs|java|rb|cs|cpp|c|h)$/i;

/**
 * 1 when the matched query terms occur side by side, falling towards 0 as the smallest window holding them widens.
 * `body`: the text's term ids in order; `distinct`: the same, distinct and ascending; `query`: the query's distinct
 * term ids (-1 for a term no text holds).
 */
function proximity(body: Uint32Array, distinct: Uint32Array, query: readonly number[]): number {
  const wanted = query.filter((id) => holds(distinct, id));
  if (wanted.length < 2) return wanted.length === 1 ? 0.3 : 0;
  const last = new Int32Array(wanted.length).fill(-1);
  let seen = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < body.length; i++) {
    const k = wanted.indexOf(body[i]);
    if (k < 0) continue;
    if (last[k] < 0) seen++;
    last[k] = i;
    if (seen < wanted.length) continue;
    let first = i;
    for (const at of last) if (at < first) first = at;
    if (i - first + 1 < best) best = i - first + 1;
  }
  return wanted.length / best;
}

/**
 * Greedy MMR: relevance minus similarity (term overlap, doubled within one document) to what was already
 * picked. Lazy, with the same result as comparing every candidate with every pick: candidates are visited best
 * score first, and a round stops at the first whose relevance alone cannot beat the best value found (the
 * similarity only lowers it); a visited candidate's similarity is brought up to date with the picks it has not
 * been compared with yet. A round then costs a few comparisons, not one per candidate and pick.
 */
export function maximalMarginalRelevance(candidates: Scored[], limit: number, lambda: number): Hit[] {
  const pool = [...candidates].sort((a, b) => b.score - a.score);
  const similarity = new Float64Array(pool.length);
  const comparedWith = new Uint32Array(pool.length);
  const taken = new Uint8Array(pool.length);
  const picked: Scored[] = [];
  while (picked.length < Math.min(limit, pool.length)) {
    let bestAt = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      if (taken[i]) continue;
      if (lambda * pool[i].score <= bestValue) break;
      for (; comparedWith[i] < picked.length; comparedWith[i]++) {
        const chosen = picked[comparedWith[i]];
        const sameDocument = chosen.hit.documentId === pool[i].hit.documentId ? 2 : 1;
        const overlap = Math.min(1, jaccard(pool[i].terms, chosen.terms) * sameDocument);
        if (overlap > similarity[i]) similarity[i] = overlap;
      }
      const value = lambda * pool[i].score - (1 - lambda) * similarity[i];
      if (value > bestValue) {
        bestValue = value;
        bestAt = i;
      }
    }
    taken[bestAt] = 1;
    picked.push(pool[bestAt]);
  }
  return picked.map(({ hit, score }) => ({ ...hit, score }));
}

/** |a ∩ b| / |a ∪ b| of two ascending lists of distinct ids, by a merge. */
function jaccard(a: Uint32Array, b: Uint32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared || 1);
}
