import type { IndexName } from '../../models/corpusRecords';
import { indexForPath } from '../corpus/repositoryFiles';
import type { Hit } from '../retrieval/hit';
import { analyze, queryTerms } from '../text/terms';
import { expandQueryTerms } from '../text/synonyms';
import { queryTarget, type QueryTarget } from '../router/queryClassifier';
import { answerTypeOf, holdsAnswerType } from './answerType';

/** Reorders candidate hits for a query; keeps at most `limit`. */
export type Reranker = (query: string, hits: readonly Hit[], limit: number) => Promise<Hit[]>;

/** What the offline reranker reads: the corpus's inverse document frequencies and, optionally, authority. */
export interface OfflineRerankerDeps {
  idf: (term: string) => number;
  /** A document's citation authority in [0, 1) (`DocumentAuthority.of`); without it, no authority prior. */
  authority?: (documentId: string) => number;
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

/** A candidate with its relevance score and term set, as MMR reads it. */
export interface Scored {
  hit: Hit;
  score: number;
  terms: Set<string>;
}

/**
 * The offline reranker: scores each candidate by its prior rank, the share of the query's idf mass its text
 * covers (synonyms at half weight), how close together the query terms occur (smallest window holding the
 * matched terms), how much of the query its title, headings, symbols and source path match, whether it is of
 * the kind the query targets, how often other documents cite its document by file name and whether it states a
 * value of the kind the question asks for (a duration for "how long", a path for "which route"…); then
 * selects greedily by maximal marginal relevance, so near-duplicate chunks of one document do not crowd the
 * top. `score` of a reranked hit is its relevance score in [0, 1].
 */
export function createOfflineReranker(
  deps: OfflineRerankerDeps,
  options: Partial<OfflineRerankerOptions> = {},
): Reranker {
  const w = { ...DEFAULT_RERANKER_OPTIONS, ...options };
  // Chunk ids are content hashes, so a chunk's analysis never goes stale; bounded, cleared when full.
  const analysed = new Map<string, { body: string[]; bodySet: Set<string>; titleSet: Set<string> }>();
  const analysis = (hit: Hit) => {
    let entry = analysed.get(hit.chunkId);
    if (!entry) {
      const body = analyze(hit.text);
      const titleSet = new Set(analyze(`${hit.title} ${hit.symbols.join(' ')} ${hit.source}`));
      entry = { body, bodySet: new Set(body), titleSet };
      if (analysed.size >= 50_000) analysed.clear();
      analysed.set(hit.chunkId, entry);
    }
    return entry;
  };
  return async (query, hits, limit) => {
    const terms = [...queryTerms(query)];
    if (terms.length === 0 || hits.length === 0) return hits.slice(0, limit);
    const expansions = expandQueryTerms(query);
    const idf = new Map(terms.map((t) => [t, deps.idf(t)]));
    const mass = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
    const target = queryTarget(query);
    const wanted = w.answerType > 0 ? answerTypeOf(query) : undefined;
    const scored: Scored[] = hits.map((hit, rank) => {
      const { body, bodySet, titleSet } = analysis(hit);
      let covered = 0;
      let titled = 0;
      for (const term of terms) {
        const weight = idf.get(term)!;
        if (bodySet.has(term)) covered += weight;
        else if ((expansions.get(term) ?? []).some((s) => bodySet.has(s))) covered += weight * 0.5;
        if (titleSet.has(term)) titled += weight;
      }
      const score =
        w.prior * (1 / Math.sqrt(rank + 1)) +
        w.coverage * (covered / mass) +
        w.proximity * proximity(body, idf) +
        w.title * (titled / mass) +
        w.target * (matchesTarget(hit, target) ? 1 : 0) +
        w.authority * (deps.authority?.(hit.documentId) ?? 0) +
        (wanted && holdsAnswerType(hit.text, wanted) ? w.answerType : 0);
      return { hit, score, terms: bodySet };
    });
    return maximalMarginalRelevance(scored, limit, w.mmrLambda);
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

/** 1 when the matched query terms occur side by side, falling towards 0 as the smallest window holding them widens. */
function proximity(body: readonly string[], idf: ReadonlyMap<string, number>): number {
  const wanted = new Set([...idf.keys()].filter((t) => body.includes(t)));
  if (wanted.size < 2) return wanted.size === 1 ? 0.3 : 0;
  const last = new Map<string, number>();
  let best = Number.POSITIVE_INFINITY;
  body.forEach((term, i) => {
    if (!wanted.has(term)) return;
    last.set(term, i);
    if (last.size === wanted.size) best = Math.min(best, i - Math.min(...last.values()) + 1);
  });
  return wanted.size / best;
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

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const term of small) if (large.has(term)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
