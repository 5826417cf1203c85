import { RegionPool, withIndex } from './regionPool';

/**
 * An inverted index's forward lists: each document's distinct terms (by the postings' term numbers) and their
 * weights, one `RegionPool` region per document, so they live outside the JavaScript heap. Read a document's
 * list as `terms(doc)[at]` and `weights(doc)[at]` for `at` from `start(doc)` below `start(doc) + count(doc)`.
 */
export class ForwardLists {
  private readonly pool = new RegionPool();
  private address = new Int32Array(0);
  private counts = new Int32Array(0);
  /** The region's size class + 1 (0: the document has no region). */
  private classes = new Uint8Array(0);

  /** Sets a document's list (a document without one). */
  set(doc: number, terms: readonly number[], weights: readonly number[]): void {
    this.address = withIndex(this.address, doc);
    this.counts = withIndex(this.counts, doc);
    this.classes = withIndex(this.classes, doc);
    this.counts[doc] = terms.length;
    this.classes[doc] = 0;
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
    this.address[doc] = address;
    this.classes[doc] = sizeClass + 1;
  }

  /** Drops a document's list. */
  delete(doc: number): void {
    if (doc >= this.classes.length || this.classes[doc] === 0) return;
    this.pool.release(this.address[doc], this.classes[doc] - 1);
    this.classes[doc] = 0;
    this.counts[doc] = 0;
  }

  /** How many distinct terms the document has (0: none, or no list). */
  count(doc: number): number {
    return doc < this.counts.length ? this.counts[doc] : 0;
  }

  terms(doc: number): Int32Array {
    return this.pool.intsOf(this.address[doc]);
  }

  weights(doc: number): Float64Array {
    return this.pool.floatsOf(this.address[doc]);
  }

  start(doc: number): number {
    return this.pool.offsetOf(this.address[doc]);
  }

  /** Drops every list. */
  clear(): void {
    this.pool.clear();
    this.counts.fill(0);
    this.classes.fill(0);
  }
}
