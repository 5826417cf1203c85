import { RegionPool, withIndex } from './regionPool';

/** Postings longer than this get a document → slot map at their first removal (shorter ones are scanned). */
const SLOT_MAP_FROM = 16;

/**
 * An inverted index's postings: for each term, its (document number, weighted tf) pairs in insertion order (but
 * for removals' swaps), with the largest weight and the shortest document length ever posted (kept on removal:
 * bounds for pruning). Terms are numbered (`idOf`); a term's pairs are one region of a `RegionPool`, doubled when
 * full, so the pairs live outside the JavaScript heap; per-term figures are typed arrays indexed by the term's
 * number. A term whose last document goes is dropped and its number reused.
 *
 * Read a term's pairs as `docs(id)[at]` and `weights(id)[at]` for `at` from `start(id)` below `start(id) + count(id)`.
 */
export class PostingLists {
  private readonly pool = new RegionPool();
  private readonly numbers = new Map<string, number>();
  private terms: (string | undefined)[] = [];
  private readonly freeNumbers: number[] = [];
  private address = new Int32Array(0);
  private counts = new Int32Array(0);
  private classes = new Uint8Array(0);
  private maxWeights = new Float64Array(0);
  private minLengths = new Float64Array(0);
  /** Document → slot in the term's region, for long postings that have had a removal. */
  private readonly slotMaps = new Map<number, Map<number, number>>();

  /** Terms with postings. */
  get size(): number {
    return this.numbers.size;
  }

  /** The term's number, or -1 when no document holds it. */
  idOf(term: string): number {
    return this.numbers.get(term) ?? -1;
  }

  /** How many documents hold the term (by number). */
  count(id: number): number {
    return this.counts[id];
  }

  maxWeight(id: number): number {
    return this.maxWeights[id];
  }

  minLength(id: number): number {
    return this.minLengths[id];
  }

  /** The page of the term's document numbers (from `start(id)`). */
  docs(id: number): Int32Array {
    return this.pool.intsOf(this.address[id]);
  }

  /** The page of the term's weights (from `start(id)`). */
  weights(id: number): Float64Array {
    return this.pool.floatsOf(this.address[id]);
  }

  start(id: number): number {
    return this.pool.offsetOf(this.address[id]);
  }

  /** Posts a document of `length` under the term, numbering the term if it is new; returns the term's number. */
  append(term: string, doc: number, weight: number, length: number): number {
    let id = this.numbers.get(term);
    if (id === undefined) {
      id = this.open(term);
      this.maxWeights[id] = weight;
      this.minLengths[id] = length;
    } else {
      if (weight > this.maxWeights[id]) this.maxWeights[id] = weight;
      if (length < this.minLengths[id]) this.minLengths[id] = length;
    }
    const count = this.counts[id];
    if (count === 1 << this.classes[id]) this.grow(id);
    const at = this.pool.offsetOf(this.address[id]) + count;
    this.docs(id)[at] = doc;
    this.weights(id)[at] = weight;
    this.slotMaps.get(id)?.set(doc, count);
    this.counts[id] = count + 1;
    return id;
  }

  /** Swap-removes a document from the term's postings (by number), dropping the term when none are left. */
  remove(id: number, doc: number): void {
    const count = this.counts[id];
    const start = this.start(id);
    const docs = this.docs(id);
    const weights = this.weights(id);
    let slots = this.slotMaps.get(id);
    if (!slots && count > SLOT_MAP_FROM) {
      slots = new Map();
      for (let at = 0; at < count; at++) slots.set(docs[start + at], at);
      this.slotMaps.set(id, slots);
    }
    let slot = slots ? (slots.get(doc) ?? -1) : -1;
    if (!slots) for (let at = 0; at < count && slot < 0; at++) if (docs[start + at] === doc) slot = at;
    if (slot < 0) return;
    const last = count - 1;
    if (slot !== last) {
      docs[start + slot] = docs[start + last];
      weights[start + slot] = weights[start + last];
      slots?.set(docs[start + slot], slot);
    }
    slots?.delete(doc);
    this.counts[id] = last;
    if (last === 0) this.drop(id);
  }

  /** Drops every term. */
  clear(): void {
    this.pool.clear();
    this.numbers.clear();
    this.terms = [];
    this.freeNumbers.length = 0;
    this.slotMaps.clear();
    this.counts.fill(0);
  }

  private open(term: string): number {
    const id = this.freeNumbers.pop() ?? this.terms.length;
    this.terms[id] = term;
    this.numbers.set(term, id);
    this.address = withIndex(this.address, id);
    this.counts = withIndex(this.counts, id);
    this.classes = withIndex(this.classes, id);
    this.maxWeights = withIndex(this.maxWeights, id);
    this.minLengths = withIndex(this.minLengths, id);
    this.address[id] = this.pool.allocate(0);
    this.classes[id] = 0;
    this.counts[id] = 0;
    return id;
  }

  /** Moves a full posting to a region twice its size. */
  private grow(id: number): void {
    const sizeClass = this.classes[id];
    const to = this.pool.allocate(sizeClass + 1);
    this.pool.copy(this.address[id], to, this.counts[id]);
    this.pool.release(this.address[id], sizeClass);
    this.address[id] = to;
    this.classes[id] = sizeClass + 1;
  }

  private drop(id: number): void {
    this.pool.release(this.address[id], this.classes[id]);
    this.numbers.delete(this.terms[id]!);
    this.terms[id] = undefined;
    this.slotMaps.delete(id);
    this.freeNumbers.push(id);
  }
}
