import { analyze } from '../text/terms';
import { ForwardLists } from './forwardLists';
import { PostingLists } from './postingLists';
import { doubleTable, growTable, type FloatPage, type IntPage } from './regionPool';

/** BM25 parameters. Defaults: k1 = 1.2 (term-frequency saturation), b = 0.75 (length normalisation). */
export interface Bm25Params {
  k1: number;
  b: number;
}

export const DEFAULT_BM25_PARAMS: Bm25Params = { k1: 1.2, b: 0.75 };

/** A field of a document and its weight: a term in a field of boost 3 counts as 3 occurrences. */
export interface WeightedField {
  text: string;
  boost: number;
}

/** A field's index terms (`analyze` of its text) and its weight. */
export interface AnalysedField {
  terms: readonly string[];
  boost: number;
}

/** Optional parts of a search (see `Bm25Index.search`). */
export interface Bm25SearchOptions {
  accept?: (id: string) => boolean;
  termWeights?: ReadonlyMap<string, number>;
  maxCandidates?: number;
}

/**
 * A query term with postings (its number, the pages of its pairs and where they start), its idf (times its weight)
 * and the most it can add to a document's score.
 */
interface PlannedTerm {
  id: number;
  docs: IntPage;
  weights: FloatPage;
  start: number;
  count: number;
  idf: number;
  bound: number;
}

/**
 * An inverted index scored with BM25F (field-weighted term frequencies and lengths), built for top-k
 * speed: postings are (document number, weighted tf) pairs in pages the collector never walks (`PostingLists`), a
 * query accumulates scores in one reused Float64Array, prunes common terms with MaxScore and keeps only the best k.
 * Supports add, replace and remove by id; document numbers of removed documents are reused.
 */
export class Bm25Index {
  private readonly params: Bm25Params;
  /**
   * Each term's (document, weighted tf) pairs, and each document's distinct terms and weights (the forward index:
   * removal, and scoring a few documents); both in `RegionPool` pages, which the collector never walks.
   */
  private readonly postings = new PostingLists();
  private readonly forward = new ForwardLists();
  private readonly numberOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private lengths = doubleTable();
  /** Sum over documents of their distinct terms. */
  private totalTerms = 0;
  private readonly freeNumbers: number[] = [];
  private totalLength = 0;
  private scores = NO_SCORES;
  /** Per document during a search: UNSEEN, MATCHED, ACCEPTED or REJECTED (reset before returning). */
  private state = NO_STATES;

  constructor(params: Bm25Params = DEFAULT_BM25_PARAMS) {
    this.params = params;
  }

  /** Number of documents indexed. */
  get size(): number {
    return this.numberOf.size;
  }

  /** Indexes a document under `id`, replacing any earlier version. */
  add(id: string, fields: readonly WeightedField[]): void {
    this.addTerms(
      id,
      fields.map((field) => ({ terms: analyze(field.text), boost: field.boost })),
    );
  }

  /** `add` of fields already analysed (`analyze`), for a caller that reads the terms too. */
  addTerms(id: string, fields: readonly AnalysedField[]): void {
    this.remove(id);
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of fields) {
      for (const term of field.terms) {
        tf.set(term, (tf.get(term) ?? 0) + field.boost);
        length += field.boost;
      }
    }
    const num = this.freeNumbers.pop() ?? this.ids.length;
    this.ids[num] = id;
    growTable(this.lengths, num);
    this.lengths[num] = length;
    this.totalTerms += tf.size;
    this.numberOf.set(id, num);
    this.totalLength += length;
    const termIds: number[] = [];
    const weights: number[] = [];
    for (const [term, weight] of tf) {
      termIds.push(this.postings.append(term, num, weight, length));
      weights.push(weight);
    }
    this.forward.set(num, termIds, weights);
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: string): void {
    const num = this.numberOf.get(id);
    if (num === undefined) return;
    const { forward } = this;
    const count = forward.count(num);
    const terms = forward.terms(num);
    const start = forward.start(num);
    for (let k = 0; k < count; k++) this.postings.remove(terms[start + k], num);
    forward.delete(num);
    this.totalLength -= this.lengths[num];
    this.totalTerms -= count;
    this.ids[num] = undefined;
    this.numberOf.delete(id);
    this.freeNumbers.push(num);
  }

  /** Drops every document. */
  clear(): void {
    this.postings.clear();
    this.forward.clear();
    this.numberOf.clear();
    this.ids = [];
    this.lengths = doubleTable();
    this.totalTerms = 0;
    this.freeNumbers.length = 0;
    this.totalLength = 0;
  }

  /** Number of documents holding `term` (0 when none). */
  documentFrequency(term: string): number {
    const termId = this.postings.idOf(term);
    return termId < 0 ? 0 : this.postings.count(termId);
  }

  /** Inverse document frequency of `term` as BM25 scores it: ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.numberOf.size - df + 0.5) / (df + 0.5));
  }

  /**
   * The best `limit` documents for the query terms (any may match), optionally only those `accept` allows.
   * `termWeights` scales each term's contribution (default 1): query expansion weighs its added terms lower.
   *
   * Term-at-a-time with MaxScore pruning: terms are scored rarest first (highest upper bound first), and once the
   * bounds of the terms still to come add up to no more than the current `limit`-th best partial score, no
   * document that has not matched yet can reach the top: matched documents that cannot reach it either are
   * dropped, and the remaining (common) terms only add to the few left, by lookup, instead of scanning postings
   * that hold most of the index. The result is the full scan's, up to the order of equal scores.
   *
   * `maxCandidates` bounds the documents considered at all (the search is then approximate): the first that match
   * the rarest terms, newest first, are scored and no others. Near-duplicate detection uses it: a near copy shares
   * the rare terms, so it is among them unless those terms are themselves in more documents than the bound.
   */
  search(
    terms: readonly string[],
    limit: number,
    options: Bm25SearchOptions = {},
  ): { id: string; score: number }[] {
    const count = this.numberOf.size;
    if (count === 0 || limit <= 0) return [];
    if (this.scores.length < this.ids.length) {
      this.scores = new Float64Array(this.ids.length * 2);
      this.state = new Uint8Array(this.ids.length * 2);
    }
    const { accept, termWeights, maxCandidates = Infinity } = options;
    const plan = this.plan(terms, termWeights);
    const { k1, b } = this.params;
    const averageLength = this.totalLength / count || 1;
    const { scores, state, lengths } = this;
    const touched: number[] = [];
    let remaining = plan.reduce((sum, term) => sum + term.bound, 0);
    let postingsLeft = plan.reduce((sum, term) => sum + term.count, 0);
    let admitting = true;
    let best = 0;
    const add = (num: number, idf: number, tf: number) => {
      const norm = k1 * (1 - b + (b * lengths[num]) / averageLength);
      const score = (scores[num] += (idf * tf * (k1 + 1)) / (tf + norm));
      if (score > best) best = score;
    };
    for (const [at, { docs, weights, start, count: postings, idf, bound }] of plan.entries()) {
      if (touched.length >= limit && remaining < best) {
        const threshold = this.threshold(touched, limit, accept);
        if (remaining <= threshold) {
          admitting = false;
          this.dropHopeless(touched, threshold, remaining);
        }
      }
      // Few candidates left: score them on their own terms rather than walk the remaining postings.
      if (!admitting && FORWARD_COST * touched.length * (this.totalTerms / count) < postingsLeft) {
        this.scoreForward(touched, plan.slice(at), add);
        break;
      }
      remaining -= bound;
      postingsLeft -= postings;
      const end = start + postings;
      if (admitting) {
        // Newest first (postings are in insertion order but for removals' swaps), for maxCandidates.
        for (let i = end - 1; i >= start; i--) {
          const num = docs[i];
          if (state[num] === UNSEEN) {
            if (touched.length >= maxCandidates) continue;
            state[num] = MATCHED;
            touched.push(num);
          }
          add(num, idf, weights[i]);
        }
        if (touched.length >= maxCandidates) admitting = false;
      } else {
        for (let i = start; i < end; i++) {
          const seen = state[docs[i]];
          if (seen !== UNSEEN && seen !== REJECTED) add(docs[i], idf, weights[i]);
        }
      }
    }
    const top: { id: string; score: number }[] = [];
    for (const num of touched) {
      const score = scores[num];
      const candidate =
        (top.length < limit || score > top[top.length - 1].score) &&
        state[num] !== REJECTED &&
        this.accepts(num, accept);
      scores[num] = 0;
      state[num] = UNSEEN;
      if (!candidate) continue;
      let at = top.length;
      while (at > 0 && top[at - 1].score < score) at--;
      top.splice(at, 0, { id: this.ids[num]!, score });
      if (top.length > limit) top.pop();
    }
    return top;
  }

  /** The query's terms that have postings, each with its idf and score bound, highest bound first. */
  private plan(terms: readonly string[], termWeights?: ReadonlyMap<string, number>): PlannedTerm[] {
    const { k1, b } = this.params;
    const count = this.numberOf.size;
    const averageLength = this.totalLength / count || 1;
    const plan: PlannedTerm[] = [];
    const { postings } = this;
    for (const term of new Set(terms)) {
      const id = postings.idOf(term);
      const weight = termWeights?.get(term) ?? 1;
      if (id < 0 || !(weight > 0)) continue;
      const df = postings.count(id);
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5)) * weight;
      // tf(k1 + 1) / (tf + norm) grows with tf and shrinks as the document gets shorter.
      const tf = postings.maxWeight(id);
      const norm = k1 * (1 - b + (b * postings.minLength(id)) / averageLength);
      const bound = (idf * tf * (k1 + 1)) / (tf + norm);
      const [docs, weights, start] = [postings.docs(id), postings.weights(id), postings.start(id)];
      plan.push({ id, docs, weights, start, count: df, idf, bound });
    }
    return plan.sort((x, y) => y.bound - x.bound);
  }

  /** The `limit`-th best partial score among matched documents `accept` allows (0 when fewer are allowed). */
  private threshold(touched: readonly number[], limit: number, accept?: (id: string) => boolean): number {
    const heap: number[] = [];
    for (const num of touched) {
      const score = this.scores[num];
      if (heap.length === limit && score <= heap[0]) continue;
      if (this.state[num] === REJECTED || !this.accepts(num, accept)) continue;
      if (heap.length < limit) heapPush(heap, score);
      else heapReplaceTop(heap, score);
    }
    return heap.length === limit ? heap[0] : 0;
  }

  /**
   * Once no new document can enter the top, drops the matched ones that cannot either: their partial score plus
   * the bounds of the terms still to come does not pass the threshold (or `accept` refused them).
   */
  private dropHopeless(touched: number[], threshold: number, remaining: number): void {
    let kept = 0;
    for (const num of touched) {
      if (this.state[num] !== REJECTED && this.scores[num] + remaining > threshold) touched[kept++] = num;
      else {
        this.scores[num] = 0;
        this.state[num] = UNSEEN;
      }
    }
    touched.length = kept;
  }

  /** Adds the planned terms' contributions to each candidate by reading its own terms (the forward index). */
  private scoreForward(
    touched: readonly number[],
    plan: readonly PlannedTerm[],
    add: (num: number, idf: number, tf: number) => void,
  ): void {
    const termIdf = new Map(plan.map(({ id, idf }) => [id, idf]));
    const { forward } = this;
    for (const num of touched) {
      if (this.state[num] === REJECTED) continue;
      const terms = forward.terms(num);
      const weights = forward.weights(num);
      const start = forward.start(num);
      const end = start + forward.count(num);
      for (let k = start; k < end; k++) {
        const idf = termIdf.get(terms[k]);
        if (idf !== undefined) add(num, idf, weights[k]);
      }
    }
  }

  /** Whether `accept` allows the document, asked once per search (the answer is kept in `state`). */
  private accepts(num: number, accept?: (id: string) => boolean): boolean {
    if (!accept || this.state[num] === ACCEPTED) return true;
    const allowed = accept(this.ids[num]!);
    this.state[num] = allowed ? ACCEPTED : REJECTED;
    return allowed;
  }
}

/** Empty until the first search (shared: never written; a search replaces them before writing). */
const NO_SCORES = new Float64Array(0);
const NO_STATES = new Uint8Array(0);

/** A forward-index term lookup (a hash probe) costs about this many posting entries walked. */
const FORWARD_COST = 16;

/** A document's state during one search. */
const UNSEEN = 0;
const MATCHED = 1;
const ACCEPTED = 2;
const REJECTED = 3;

/** Min-heap helpers over plain arrays (the threshold keeps the best `limit` scores). */
function heapPush(heap: number[], value: number): void {
  let at = heap.push(value) - 1;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (heap[parent] <= heap[at]) break;
    [heap[parent], heap[at]] = [heap[at], heap[parent]];
    at = parent;
  }
}

function heapReplaceTop(heap: number[], value: number): void {
  heap[0] = value;
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let smallest = at;
    if (left < heap.length && heap[left] < heap[smallest]) smallest = left;
    if (right < heap.length && heap[right] < heap[smallest]) smallest = right;
    if (smallest === at) return;
    [heap[smallest], heap[at]] = [heap[at], heap[smallest]];
    at = smallest;
  }
}
