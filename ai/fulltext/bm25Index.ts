import { analyze } from '../text/terms';

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

/** A term's postings: parallel arrays for fast scans, plus each document's slot for O(1) removal. */
interface Posting {
  docs: number[];
  weights: number[];
  slotOf: Map<number, number>;
}

/**
 * An inverted index scored with BM25F (field-weighted term frequencies and lengths), built for top-k
 * speed: postings are parallel arrays (document number, weighted tf), a query accumulates scores in one
 * reused Float64Array and keeps only the best k while scanning. Supports add, replace and remove by id;
 * document numbers of removed documents are reused.
 */
export class Bm25Index {
  private readonly params: Bm25Params;
  private readonly postings = new Map<string, Posting>();
  private readonly numberOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private lengths: number[] = [];
  private termsOf: (string[] | undefined)[] = [];
  private readonly freeNumbers: number[] = [];
  private totalLength = 0;
  private scores = new Float64Array(0);

  constructor(params: Bm25Params = DEFAULT_BM25_PARAMS) {
    this.params = params;
  }

  /** Number of documents indexed. */
  get size(): number {
    return this.numberOf.size;
  }

  /** Indexes a document under `id`, replacing any earlier version. */
  add(id: string, fields: readonly WeightedField[]): void {
    this.remove(id);
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of fields) {
      for (const term of analyze(field.text)) {
        tf.set(term, (tf.get(term) ?? 0) + field.boost);
        length += field.boost;
      }
    }
    const num = this.freeNumbers.pop() ?? this.ids.length;
    this.ids[num] = id;
    this.lengths[num] = length;
    this.termsOf[num] = [...tf.keys()];
    this.numberOf.set(id, num);
    this.totalLength += length;
    for (const [term, weight] of tf) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { docs: [], weights: [], slotOf: new Map() }));
      posting.slotOf.set(num, posting.docs.length);
      posting.docs.push(num);
      posting.weights.push(weight);
    }
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: string): void {
    const num = this.numberOf.get(id);
    if (num === undefined) return;
    for (const term of this.termsOf[num] ?? []) {
      const posting = this.postings.get(term);
      if (posting) this.removePosting(term, posting, num);
    }
    this.totalLength -= this.lengths[num];
    this.ids[num] = undefined;
    this.termsOf[num] = undefined;
    this.numberOf.delete(id);
    this.freeNumbers.push(num);
  }

  /** Swap-removes a document from a term's postings, dropping the term when none are left. */
  private removePosting(term: string, posting: Posting, num: number): void {
    const slot = posting.slotOf.get(num);
    if (slot === undefined) return;
    const last = posting.docs.length - 1;
    if (slot !== last) {
      posting.docs[slot] = posting.docs[last];
      posting.weights[slot] = posting.weights[last];
      posting.slotOf.set(posting.docs[slot], slot);
    }
    posting.docs.pop();
    posting.weights.pop();
    posting.slotOf.delete(num);
    if (posting.docs.length === 0) this.postings.delete(term);
  }

  /** Drops every document. */
  clear(): void {
    this.postings.clear();
    this.numberOf.clear();
    this.ids = [];
    this.lengths = [];
    this.termsOf = [];
    this.freeNumbers.length = 0;
    this.totalLength = 0;
  }

  /** Number of documents holding `term` (0 when none). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.docs.length ?? 0;
  }

  /** Inverse document frequency of `term` as BM25 scores it: ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.numberOf.size - df + 0.5) / (df + 0.5));
  }

  /**
   * The best `limit` documents for the query terms (any may match), optionally only those `accept` allows.
   * `weights` scales each term's contribution (default 1): query expansion weighs its added terms lower.
   */
  search(
    terms: readonly string[],
    limit: number,
    accept?: (id: string) => boolean,
    termWeights?: ReadonlyMap<string, number>,
  ): { id: string; score: number }[] {
    const count = this.numberOf.size;
    if (count === 0 || limit <= 0) return [];
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(this.ids.length * 2);
    const { k1, b } = this.params;
    const averageLength = this.totalLength / count || 1;
    const scores = this.scores;
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const { docs, weights } = posting;
      const idf =
        Math.log(1 + (count - docs.length + 0.5) / (docs.length + 0.5)) * (termWeights?.get(term) ?? 1);
      for (let i = 0; i < docs.length; i++) {
        const num = docs[i];
        const tf = weights[i];
        if (scores[num] === 0) touched.push(num);
        const norm = k1 * (1 - b + (b * this.lengths[num]) / averageLength);
        scores[num] += (idf * tf * (k1 + 1)) / (tf + norm);
      }
    }
    const top: { id: string; score: number }[] = [];
    for (const num of touched) {
      const score = scores[num];
      scores[num] = 0;
      if (top.length === limit && score <= top[top.length - 1].score) continue;
      const id = this.ids[num]!;
      if (accept && !accept(id)) continue;
      let at = top.length;
      while (at > 0 && top[at - 1].score < score) at--;
      top.splice(at, 0, { id, score });
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
