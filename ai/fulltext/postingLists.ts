import { doubleTable, RegionPool, type FloatPage, type IntPage } from './regionPool';

/** Postings longer than this get a document → slot map at their first removal (shorter ones are scanned). */
const SLOT_MAP_FROM = 16;

/**
 * A term's row of the table: its region's address, its count, its region's size class, bounds for pruning, and 1
 * when it has a slot map.
 */
const ADDRESS = 0;
const COUNT = 1;
const CLASS = 2;
const MAX_WEIGHT = 3;
const MIN_LENGTH = 4;
const SLOTS = 5;
const ROW = 6;

/**
 * An inverted index's postings: for each term, its (document number, weighted tf) pairs in insertion order (but
 * for removals' swaps), with the largest weight and the shortest document length ever posted (kept on removal:
 * bounds for pruning). Terms are numbered (`idOf`); a term's pairs are one region of a `RegionPool`, doubled when
 * full, so the collector never walks the pairs; the per-term figures are one row each of a table of doubles (one
 * table, not one array per figure: the memory service keeps an index per subject, most of them tiny). A term whose
 * last document goes is dropped and its number reused.
 *
 * Read a term's pairs as `docs(id)[at]` and `weights(id)[at]` for `at` from `start(id)` below `start(id) + count(id)`.
 */
export class PostingLists {
  private readonly pool = new RegionPool();
  private readonly numbers = new Map<string, number>();
  private terms: (string | undefined)[] = [];
  private readonly freeNumbers: number[] = [];
  private table = doubleTable();
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
    return this.table[id * ROW + COUNT];
  }

  maxWeight(id: number): number {
    return this.table[id * ROW + MAX_WEIGHT];
  }

  minLength(id: number): number {
    return this.table[id * ROW + MIN_LENGTH];
  }

  /** The page of the term's document numbers (from `start(id)`). */
  docs(id: number): IntPage {
    return this.pool.intsOf(this.table[id * ROW + ADDRESS]);
  }

  /** The page of the term's weights (from `start(id)`). */
  weights(id: number): FloatPage {
    return this.pool.floatsOf(this.table[id * ROW + ADDRESS]);
  }

  start(id: number): number {
    return this.pool.offsetOf(this.table[id * ROW + ADDRESS]);
  }

  /** Posts a document of `length` under the term, numbering the term if it is new; returns the term's number. */
  append(term: string, doc: number, weight: number, length: number): number {
    let id = this.numbers.get(term);
    if (id === undefined) {
      id = this.open(term);
      this.table[id * ROW + MAX_WEIGHT] = weight;
      this.table[id * ROW + MIN_LENGTH] = length;
    }
    const row = id * ROW;
    const { table } = this;
    if (weight > table[row + MAX_WEIGHT]) table[row + MAX_WEIGHT] = weight;
    if (length < table[row + MIN_LENGTH]) table[row + MIN_LENGTH] = length;
    const count = table[row + COUNT];
    if (count === 1 << table[row + CLASS]) this.move(id, table[row + CLASS] + 1);
    const address = table[row + ADDRESS];
    const at = this.pool.offsetOf(address) + count;
    this.pool.intsOf(address)[at] = doc;
    this.pool.floatsOf(address)[at] = weight;
    if (table[row + SLOTS]) this.slotMaps.get(id)!.set(doc, count);
    table[row + COUNT] = count + 1;
    return id;
  }

  /** Swap-removes a document from the term's postings (by number), dropping the term when none are left. */
  remove(id: number, doc: number): void {
    const row = id * ROW;
    const count = this.table[row + COUNT];
    const start = this.start(id);
    const docs = this.docs(id);
    const weights = this.weights(id);
    let slots = this.slotMaps.get(id);
    if (!slots && count > SLOT_MAP_FROM) {
      slots = new Map();
      for (let at = 0; at < count; at++) slots.set(docs[start + at], at);
      this.slotMaps.set(id, slots);
      this.table[row + SLOTS] = 1;
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
    this.table[row + COUNT] = last;
    if (last === 0) this.drop(id);
    else if (last * 4 <= 1 << this.table[row + CLASS] && this.table[row + CLASS] >= 2)
      this.move(id, this.table[row + CLASS] - 1);
  }

  /** Drops every term. */
  clear(): void {
    this.pool.clear();
    this.numbers.clear();
    this.terms = [];
    this.freeNumbers.length = 0;
    this.slotMaps.clear();
    this.table = doubleTable();
  }

  private open(term: string): number {
    const id = this.freeNumbers.pop() ?? this.terms.length;
    this.terms[id] = term;
    this.numbers.set(term, id);
    const row = id * ROW;
    const address = this.pool.allocate(0);
    // A new number is the next row: one push of the whole row (the bounds are set by `append`).
    if (row === this.table.length) this.table.push(address, 0, 0, 0, 0, 0);
    else {
      this.table[row + ADDRESS] = address;
      this.table[row + CLASS] = 0;
      this.table[row + COUNT] = 0;
      this.table[row + SLOTS] = 0;
    }
    return id;
  }

  /**
   * Moves a posting to a region of `sizeClass`: twice its size when full, half when it fell to a quarter (postings
   * shrink as they grew).
   */
  private move(id: number, sizeClass: number): void {
    const row = id * ROW;
    const to = this.pool.allocate(sizeClass);
    this.pool.copy(this.table[row + ADDRESS], to, this.table[row + COUNT]);
    this.pool.release(this.table[row + ADDRESS], this.table[row + CLASS]);
    this.table[row + ADDRESS] = to;
    this.table[row + CLASS] = sizeClass;
  }

  private drop(id: number): void {
    const row = id * ROW;
    this.pool.release(this.table[row + ADDRESS], this.table[row + CLASS]);
    this.numbers.delete(this.terms[id]!);
    this.terms[id] = undefined;
    this.slotMaps.delete(id);
    this.freeNumbers.push(id);
  }
}
