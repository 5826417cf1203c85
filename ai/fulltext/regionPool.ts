/** Offsets within a page are below 2^PAGE_BITS: an address is page × PAGE_SPAN + offset. */
const PAGE_BITS = 18;
const PAGE_SPAN = 1 << PAGE_BITS;
/**
 * The first shared page's entries; each next one doubles, up to PAGE_SPAN: the memory service keeps an index per
 * subject, most of a few short memories, and such an index stays small.
 */
const FIRST_PAGE = 16;
/** Regions of up to 2^MAX_SHARED_CLASS entries share pages; larger ones get a page of their own. */
export const MAX_SHARED_CLASS = 12;
/** Addresses fit an Int32Array: at most this many pages (2^31 / PAGE_SPAN). */
const MAX_PAGES = 2 ** (31 - PAGE_BITS);
/** Pages of at least this many entries are typed arrays; smaller ones are arrays of doubles (default). */
const TYPED_FROM = 4096;

/** A page of int32 entries: a typed array, or for a small page an array of doubles. */
export type IntPage = Int32Array | number[];
/** A page of float64 entries: a typed array, or for a small page an array of doubles. */
export type FloatPage = Float64Array | number[];

/**
 * Regions of 2^k entries, each entry an int and a double side by side, carved out of a few large pages instead of two
 * small arrays per region. Neither kind of page holds pointers, so the garbage collector never walks its entries: an
 * inverted index of 100k chunks keeps millions of (document, weight) pairs here, and as JavaScript arrays of
 * numbers and objects they were most of what each major collection marked. Pages from `typedFrom` entries up are
 * typed arrays (outside the JavaScript heap: a large index does not count against the heap's limit); smaller pages
 * are plain arrays of doubles, which cost a few nanoseconds to make where a typed array costs microseconds (the
 * memory service makes thousands of small indexes, and typed pages made building one twice as slow).
 *
 * A region is named by its address and its size class (k); the caller keeps both. Released regions go to a free list
 * per class and are handed out again. Regions of up to 2^MAX_SHARED_CLASS entries share pages (the first 16 entries,
 * each next page twice the last or as large as the region, up to 2^18); a larger region gets a page of its own,
 * dropped on release.
 */
export class RegionPool {
  private ints: IntPage[] = [];
  private floats: FloatPage[] = [];
  /** The shared page being filled (-1: none yet) and how many of its entries are handed out. */
  private current = -1;
  private used = 0;
  /** Entries in all pages (`capacity`), kept as pages come and go: read on every `CandidateAnalyses.remember`. */
  private entries = 0;
  /** Released regions by size class (made on first use: most pools of a small index never release one). */
  private free: (number[] | undefined)[] = [];
  /** Pages of released large regions, to reuse their numbers. */
  private freePages?: number[];
  private readonly withFloats: boolean;
  private readonly typedFrom: number;

  /**
   * `floats: false` keeps no double side (`floatsOf` is empty): a pool of int regions alone. `typedFrom`: pages of at
   * least this many entries are typed arrays (0: every page, for a caller that needs typed views).
   */
  constructor({ floats = true, typedFrom = TYPED_FROM }: { floats?: boolean; typedFrom?: number } = {}) {
    this.withFloats = floats;
    this.typedFrom = typedFrom;
  }

  /** The smallest size class holding `entries` entries (2^class ≥ entries). */
  static sizeClassFor(entries: number): number {
    return entries <= 1 ? 0 : 32 - Math.clz32(entries - 1);
  }

  /** A region of 2^sizeClass entries (their values are whatever was there: write before reading). */
  allocate(sizeClass: number): number {
    if (sizeClass > MAX_SHARED_CLASS) return this.newPage(1 << sizeClass) * PAGE_SPAN;
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
    this.entries -= this.ints[page].length;
    this.ints[page] = NO_ENTRIES;
    this.floats[page] = NO_ENTRIES;
    (this.freePages ??= []).push(page);
  }

  /** The int page a region's entries are in; they start at `offsetOf(address)`. */
  intsOf(address: number): IntPage {
    return this.ints[this.pageOf(address)];
  }

  /** The int page a region's entries are in, as a typed array (a pool made with `typedFrom: 0`). */
  typedIntsOf(address: number): Int32Array {
    const page = this.ints[this.pageOf(address)];
    if (!(page instanceof Int32Array)) throw new TypeError('RegionPool: this pool keeps small pages untyped');
    return page;
  }

  /** The double page a region's entries are in; they start at `offsetOf(address)`. */
  floatsOf(address: number): FloatPage {
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
    const [fromInts, toInts] = [this.intsOf(from), this.intsOf(to)];
    for (let k = 0; k < count; k++) toInts[at + k] = fromInts[start + k];
    if (!this.withFloats) return;
    const [fromFloats, toFloats] = [this.floatsOf(from), this.floatsOf(to)];
    for (let k = 0; k < count; k++) toFloats[at + k] = fromFloats[start + k];
  }

  /** Drops every region and page. */
  clear(): void {
    this.ints = [];
    this.floats = [];
    this.current = -1;
    this.used = 0;
    this.entries = 0;
    this.free = [];
    this.freePages = undefined;
  }

  /** Entries held in pages (handed out, free or not yet used): 12 bytes each in typed pages (4 without doubles). */
  get capacity(): number {
    return this.entries;
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
    this.current = this.newPage(Math.min(PAGE_SPAN, Math.max(size, last * 2)));
    this.used = 0;
  }

  private newPage(length: number): number {
    const page = this.freePages?.pop() ?? this.ints.length;
    if (page >= MAX_PAGES) throw new RangeError(`RegionPool: more than ${MAX_PAGES} pages`);
    const typed = length >= this.typedFrom;
    this.ints[page] = typed ? new Int32Array(length) : doubleTable(length);
    this.entries += length;
    this.floats[page] = !this.withFloats
      ? NO_ENTRIES
      : typed
        ? new Float64Array(length)
        : doubleTable(length);
    return page;
  }
}

const NO_ENTRIES: number[] = [];

/**
 * A table of `length` zeros kept in double elements, whose entries the garbage collector never walks: zeros stored
 * then a double written once (V8 converts the array to doubles, and never back to tagged values), or for an empty
 * table a double literal emptied.
 */
export function doubleTable(length = 0): number[] {
  if (length === 0) {
    const table = [0.5];
    table.pop();
    return table;
  }
  const table = new Array<number>(length).fill(0);
  table[0] = 0.5;
  table[0] = 0;
  return table;
}

/** Grows a table of doubles with zeros so that `index` is in range. */
export function growTable(table: number[], index: number): void {
  while (table.length <= index) table.push(0);
}

/** `array`, or a copy twice as long as needed, so that `index` is in range (per-slot typed tables). */
export function withIndex<T extends Int32Array | Float64Array | Uint8Array>(array: T, index: number): T {
  if (index < array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(64, 2 * (index + 1)));
  next.set(array);
  return next;
}
