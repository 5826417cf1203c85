import { doubleTable, growTable, RegionPool, type FloatPage, type IntPage } from './regionPool';

/** A document's row of the table: its region's address, its count, its region's size class + 1 (0: no region). */
const ADDRESS = 0;
const COUNT = 1;
const CLASS = 2;
const ROW = 3;

/**
 * An inverted index's forward lists: each document's distinct terms (by the postings' term numbers) and their
 * weights, one `RegionPool` region per document, which the collector never walks; a document's address, count and
 * size class are its row of one table of doubles. Read a document's list as `terms(doc)[at]` and
 * `weights(doc)[at]` for `at` from `start(doc)` below `start(doc) + count(doc)`.
 */
export class ForwardLists {
  private readonly pool = new RegionPool();
  private table = doubleTable();

  /** Sets a document's list (a document without one). */
  set(doc: number, terms: readonly number[], weights: readonly number[]): void {
    growTable(this.table, doc * ROW + ROW - 1);
    const row = doc * ROW;
    this.table[row + COUNT] = terms.length;
    this.table[row + CLASS] = 0;
    if (terms.length === 0) return;
    const sizeClass = RegionPool.sizeClassFor(terms.length);
    const address = this.pool.allocate(sizeClass);
    const start = this.pool.offsetOf(address);
    const ints = this.pool.intsOf(address);
    const floats = this.pool.floatsOf(address);
    for (let k = 0; k < terms.length; k++) {
      ints[start + k] = terms[k];
      floats[start + k] = weights[k];
    }
    this.table[row + ADDRESS] = address;
    this.table[row + CLASS] = sizeClass + 1;
  }

  /** Drops a document's list. */
  delete(doc: number): void {
    const row = doc * ROW;
    if (row >= this.table.length || this.table[row + CLASS] === 0) return;
    this.pool.release(this.table[row + ADDRESS], this.table[row + CLASS] - 1);
    this.table[row + CLASS] = 0;
    this.table[row + COUNT] = 0;
  }

  /** How many distinct terms the document has (0: none, or no list). */
  count(doc: number): number {
    return doc * ROW < this.table.length ? this.table[doc * ROW + COUNT] : 0;
  }

  terms(doc: number): IntPage {
    return this.pool.intsOf(this.table[doc * ROW + ADDRESS]);
  }

  weights(doc: number): FloatPage {
    return this.pool.floatsOf(this.table[doc * ROW + ADDRESS]);
  }

  start(doc: number): number {
    return this.pool.offsetOf(this.table[doc * ROW + ADDRESS]);
  }

  /** Drops every list. */
  clear(): void {
    this.pool.clear();
    this.table = doubleTable();
  }
}
