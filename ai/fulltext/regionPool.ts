/** Offsets within a page are below 2^PAGE_BITS: an address is page × PAGE_SPAN + offset. */
const PAGE_BITS = 18;
const PAGE_SPAN = 1 << PAGE_BITS;
/**
 * The first shared page's entries; each next one doubles, up to PAGE_SPAN: the memory service keeps an index per
 * subject, most of a few short memories, and such an index stays a few hundred bytes.
 */
const FIRST_PAGE = 16;
/** Regions of up to 2^MAX_SHARED_CLASS entries share pages; larger ones get a page of their own. */
export const MAX_SHARED_CLASS = 12;
/** Addresses fit an Int32Array: at most this many pages (2^31 / PAGE_SPAN). */
const MAX_PAGES = 2 ** (31 - PAGE_BITS);

/**
 * Regions of 2^k entries, each entry an int32 and a float64 side by side, carved out of a few large typed arrays
 * (pages) instead of two small arrays per region. A page's entries live outside the JavaScript heap and hold no
 * pointers, so the garbage collector neither marks nor copies them: an inverted index of 100k chunks keeps millions
 * of (document, weight) pairs here, and as JavaScript arrays they were most of what each major collection marked.
 *
 * A region is named by its address and its size class (k); the caller keeps both. Released regions go to a free list
 * per class and are handed out again. Regions of up to 2^MAX_SHARED_CLASS entries share pages (the first 16
 * entries, each next page twice the last, up to 2^18); a larger region gets a page of its own, dropped on release.
 */
export class RegionPool {
  private ints: Int32Array[] = [];
  private floats: Float64Array[] = [];
  /** The shared page being filled (-1: none yet) and how many of its entries are handed out. */
  private current = -1;
  private used = 0;
  /** Released regions by size class (made on first use: most pools of a small index never release one). */
  private free: (number[] | undefined)[] = [];
  /** Pages of released large regions, to reuse their numbers. */
  private freePages?: number[];
  private readonly withFloats: boolean;

  /** `floats: false` keeps no float64 side (`floatsOf` is empty): a pool of int32 regions alone. */
  constructor({ floats = true }: { floats?: boolean } = {}) {
    this.withFloats = floats;
  }

  /** The smallest size class holding `entries` entries (2^class ≥ entries). */
  static sizeClassFor(entries: number): number {
    return entries <= 1 ? 0 : 32 - Math.clz32(entries - 1);
  }

  /** A region of 2^sizeClass entries (their values are whatever was there: write before reading). */
  allocate(sizeClass: number): number {
    if (sizeClass > MAX_SHARED_CLASS) return this.ownPage(1 << sizeClass);
    const reused = this.free[sizeClass]?.pop();
    if (reused !== undefined) return reused;
    const size = 1 << sizeClass;
    if (this.current < 0 || this.used + size > this.ints[this.current].length) this.nextSharedPage(size);
    const address = this.current * PAGE_SPAN + this.used;
    this.used += size;
    return address;
  }

  /** Gives a region back (its address and class as allocated). */
  release(address: number, sizeClass: number): void {
    if (sizeClass <= MAX_SHARED_CLASS) {
      (this.free[sizeClass] ??= []).push(address);
      return;
    }
    const page = this.pageOf(address);
    this.ints[page] = EMPTY_INTS;
    this.floats[page] = EMPTY_FLOATS;
    (this.freePages ??= []).push(page);
  }

  /** The int32 page a region's entries are in; they start at `offsetOf(address)`. */
  intsOf(address: number): Int32Array {
    return this.ints[this.pageOf(address)];
  }

  /** The float64 page a region's entries are in; they start at `offsetOf(address)`. */
  floatsOf(address: number): Float64Array {
    return this.floats[this.pageOf(address)];
  }

  /** Where a region's entries start in its pages. */
  offsetOf(address: number): number {
    return address & (PAGE_SPAN - 1);
  }

  /** Copies `count` entries from one region to another. */
  copy(from: number, to: number, count: number): void {
    const start = this.offsetOf(from);
    const at = this.offsetOf(to);
    this.intsOf(to).set(this.intsOf(from).subarray(start, start + count), at);
    if (this.withFloats) this.floatsOf(to).set(this.floatsOf(from).subarray(start, start + count), at);
  }

  /** Drops every region and page. */
  clear(): void {
    this.ints = [];
    this.floats = [];
    this.current = -1;
    this.used = 0;
    this.free = [];
    this.freePages = undefined;
  }

  /** Entries held in pages (handed out, free or not yet used): 12 bytes each (4 without the float side). */
  get capacity(): number {
    return this.ints.reduce((sum, page) => sum + page.length, 0);
  }

  private pageOf(address: number): number {
    return (address / PAGE_SPAN) | 0;
  }

  /** Starts a new shared page, first handing the rest of the current one to the free lists. */
  private nextSharedPage(size: number): void {
    if (this.current >= 0) {
      let left = this.ints[this.current].length - this.used;
      while (left > 0) {
        const sizeClass = Math.min(MAX_SHARED_CLASS, 31 - Math.clz32(left));
        (this.free[sizeClass] ??= []).push(this.current * PAGE_SPAN + this.used);
        this.used += 1 << sizeClass;
        left -= 1 << sizeClass;
      }
    }
    const last = this.current < 0 ? FIRST_PAGE / 2 : this.ints[this.current].length;
    const length = Math.min(PAGE_SPAN, Math.max(size, last * 2));
    this.current = this.newPage(length);
    this.used = 0;
  }

  private ownPage(length: number): number {
    return this.newPage(length) * PAGE_SPAN;
  }

  private newPage(length: number): number {
    const page = this.freePages?.pop() ?? this.ints.length;
    if (page >= MAX_PAGES) throw new RangeError(`RegionPool: more than ${MAX_PAGES} pages`);
    this.ints[page] = new Int32Array(length);
    this.floats[page] = this.withFloats ? new Float64Array(length) : EMPTY_FLOATS;
    return page;
  }
}

const EMPTY_INTS = new Int32Array(0);
const EMPTY_FLOATS = new Float64Array(0);

/** `array`, or a copy half as long again as needed, so that `index` is in range (per-term and per-document tables). */
export function withIndex<T extends Int32Array | Float64Array | Uint8Array>(array: T, index: number): T {
  if (index < array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(16, index + 1 + (index >> 1)));
  next.set(array);
  return next;
}
