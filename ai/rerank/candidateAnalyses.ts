import { RegionPool, withIndex } from '../fulltext/regionPool';
import { analyze } from '../text/terms';

/**
 * What the reranker reads of a candidate, worked out the first time the chunk is a candidate and kept: its text's
 * terms as ids in text order (proximity) and distinct in ascending order (coverage, MMR's overlap by a merge),
 * and its title's, symbols' and source's distinct term ids. Ids are the cache's own (`TermIds`).
 */
export interface Analysis {
  body: Uint32Array;
  distinct: Uint32Array;
  title: Uint32Array;
}

/** What a candidate's analysis is made from (a `Hit`'s fields). */
export interface AnalysedText {
  chunkId: string;
  text: string;
  title: string;
  symbols: readonly string[];
  source: string;
}

/** Bounds of `CandidateAnalyses`. */
export interface CandidateAnalysesOptions {
  /** Bytes of kept analyses (regions plus `ENTRY_OVERHEAD` each); the least recently used go first. */
  maxBytes: number;
  /** Distinct terms interned before every analysis is dropped and ids start again (between searches only). */
  maxTerms: number;
}

/**
 * Default bounds: 192 MiB of analyses (about 130,000 chunks of 150-200 words: a 100k-chunk corpus fits whole) and
 * 4 million terms. Before, 50,000 chunks were kept and then all dropped: on a corpus twice that size most
 * candidates of a search were analysed again, and the analysis was 70 % of a v2 SIMPLE search's CPU at 100k chunks
 * (services/brain/README.md, issue 37, stop 49).
 */
export const DEFAULT_ANALYSES_OPTIONS: CandidateAnalysesOptions = {
  maxBytes: 192 * 1024 * 1024,
  maxTerms: 4_000_000,
};

/** The pool may pass twice the budget by this much before it is compacted (bytes: small budgets in tests). */
const COMPACT_SLACK = 1 << 20;

/** A kept analysis's cost beyond its region's bytes: its map entry and its row of the slot tables. */
export const ENTRY_OVERHEAD = 64;

/** Sorts `length` values from `at` and drops repeats in place; returns how many distinct values are left there. */
function distinctSortedInPlace(values: Uint32Array, at: number, length: number): number {
  values.subarray(at, at + length).sort();
  let kept = 0;
  for (let i = at; i < at + length; i++)
    if (kept === 0 || values[i] !== values[at + kept - 1]) values[at + kept++] = values[i];
  return kept;
}

/** A kept analysis's bytes: its region (4 bytes an entry, rounded up to its size class) and its entry. */
function sizeOf(sizeClass: number): number {
  return ENTRY_OVERHEAD + 4 * (1 << sizeClass);
}

/** The bytes an analysis counts against `maxBytes` while kept. */
export function keptBytes(analysis: Analysis): number {
  return sizeOf(
    RegionPool.sizeClassFor(analysis.body.length + analysis.distinct.length + analysis.title.length),
  );
}

/**
 * Chunks' analyses by chunk id (chunk ids are content hashes: an analysis never goes stale) within a byte budget,
 * and the term → id map they share (term ids are small integers, so a candidate's terms are a typed array and set
 * operations are merges of numbers). The fulltext index hands each chunk's terms over as it indexes them
 * (`remember`), so a search rarely analyses a candidate itself; eviction is a clock (second chance): a read only
 * marks its entry, and the oldest entries not read since the last pass go first.
 *
 * A kept analysis is one region of a `RegionPool` (body, then distinct, then title), so the analyses of a 100k-chunk
 * corpus are a few large typed arrays outside the JavaScript heap, not six objects a chunk for the garbage collector
 * to walk. `of` hands out views of the region, valid until the next `beginSearch` or `remember` (the reranker reads
 * them synchronously within one search): a region evicted while a search runs (a candidate analysed then pushed
 * another out) is given back only then. Freed regions are reused by size class only, so when the sizes of the kept
 * analyses drift the pool could hold more than the budget: once its pages pass twice `maxBytes`, the kept analyses
 * are copied into a fresh pool (at those same points, between searches).
 */
export class CandidateAnalyses {
  private readonly slots = new Map<string, number>();
  private pool = new RegionPool({ floats: false, typedFrom: 0 });
  private address = new Int32Array(0);
  private classes = new Uint8Array(0);
  private bodyLengths = new Int32Array(0);
  private distinctLengths = new Int32Array(0);
  private titleLengths = new Int32Array(0);
  /** 1 when a search read the slot since the last eviction pass. */
  private used = new Uint8Array(0);
  /** Slots ever opened; free ones are reused first. */
  private opened = 0;
  private readonly freeSlots: number[] = [];
  /** Slots evicted during a search, given back when the next search or ingest begins. */
  private readonly evictedInSearch: number[] = [];
  private readonly ids = new Map<string, number>();
  private bytes = 0;
  private readonly options: CandidateAnalysesOptions;
  /** Scratch for a chunk's term ids while it is analysed. */
  private scratch = new Uint32Array(1024);

  constructor(options: Partial<CandidateAnalysesOptions> = {}) {
    this.options = { ...DEFAULT_ANALYSES_OPTIONS, ...options };
  }

  /** Kept analyses (for tests and stats). */
  get size(): number {
    return this.slots.size;
  }

  /** The term's id, or -1 when no analysed text holds it. */
  idOf(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  /**
   * Call before a search's analyses: drops every analysis and id once the vocabulary is past its bound, so ids
   * never change while a search compares them.
   */
  beginSearch(): void {
    this.giveBackEvicted();
    if (this.ids.size <= this.options.maxTerms) return;
    this.slots.clear();
    this.pool.clear();
    this.opened = 0;
    this.freeSlots.length = 0;
    this.ids.clear();
    this.bytes = 0;
  }

  /** The candidate's analysis, kept or worked out now and kept (views valid until the next search or `remember`). */
  of(hit: AnalysedText): Analysis {
    const slot = this.slots.get(hit.chunkId);
    if (slot !== undefined) {
      this.used[slot] = 1;
      return this.views(slot);
    }
    const title = `${hit.title} ${hit.symbols.join(' ')} ${hit.source}`;
    return this.views(this.keep(hit.chunkId, analyze(hit.text), analyze(title), true));
  }

  /**
   * Keeps a chunk's analysis from terms already worked out (its text's, in order; its title's, symbols' and
   * source's, in any order), as the fulltext index has them when it indexes the chunk. A kept chunk is left as is.
   */
  remember(chunkId: string, textTerms: readonly string[], titleTerms: readonly string[]): void {
    this.giveBackEvicted();
    this.keep(chunkId, textTerms, titleTerms, false);
  }

  /** Keeps the analysis (unless kept) and returns its slot; `inSearch`: asked by a running search (`of`). */
  private keep(
    chunkId: string,
    textTerms: readonly string[],
    titleTerms: readonly string[],
    inSearch: boolean,
  ): number {
    const kept = this.slots.get(chunkId);
    if (kept !== undefined) return kept;
    const bodyLength = textTerms.length;
    const most = 2 * bodyLength + titleTerms.length;
    if (this.scratch.length < most) this.scratch = new Uint32Array(2 * most);
    const { scratch } = this;
    this.intern(textTerms, scratch, 0);
    scratch.copyWithin(bodyLength, 0, bodyLength);
    const distinctLength = distinctSortedInPlace(scratch, bodyLength, bodyLength);
    const titleAt = bodyLength + distinctLength;
    this.intern(titleTerms, scratch, titleAt);
    const titleLength = distinctSortedInPlace(scratch, titleAt, titleTerms.length);
    const total = titleAt + titleLength;
    const sizeClass = RegionPool.sizeClassFor(total);
    const address = this.pool.allocate(sizeClass);
    this.pool.typedIntsOf(address).set(scratch.subarray(0, total), this.pool.offsetOf(address));
    const slot = this.openSlot();
    this.address[slot] = address;
    this.classes[slot] = sizeClass;
    this.bodyLengths[slot] = bodyLength;
    this.distinctLengths[slot] = distinctLength;
    this.titleLengths[slot] = titleLength;
    this.used[slot] = 0;
    this.slots.set(chunkId, slot);
    this.bytes += sizeOf(sizeClass);
    if (this.bytes > this.options.maxBytes) this.evict(inSearch);
    return slot;
  }

  /** The slot's analysis as views of its region. */
  private views(slot: number): Analysis {
    const address = this.address[slot];
    const page = this.pool.typedIntsOf(address);
    const at = page.byteOffset + 4 * this.pool.offsetOf(address);
    const body = this.bodyLengths[slot];
    const distinct = this.distinctLengths[slot];
    return {
      body: new Uint32Array(page.buffer, at, body),
      distinct: new Uint32Array(page.buffer, at + 4 * body, distinct),
      title: new Uint32Array(page.buffer, at + 4 * (body + distinct), this.titleLengths[slot]),
    };
  }

  private openSlot(): number {
    const slot = this.freeSlots.pop() ?? this.opened++;
    this.address = withIndex(this.address, slot);
    this.classes = withIndex(this.classes, slot);
    this.bodyLengths = withIndex(this.bodyLengths, slot);
    this.distinctLengths = withIndex(this.distinctLengths, slot);
    this.titleLengths = withIndex(this.titleLengths, slot);
    this.used = withIndex(this.used, slot);
    return slot;
  }

  /** Oldest first: an entry read since the last pass goes to the back unmarked, one not read is dropped. */
  private evict(inSearch: boolean): void {
    for (const [chunkId, slot] of this.slots) {
      if (this.bytes <= this.options.maxBytes) return;
      this.slots.delete(chunkId);
      if (this.used[slot]) {
        this.used[slot] = 0;
        this.slots.set(chunkId, slot);
        continue;
      }
      this.bytes -= sizeOf(this.classes[slot]);
      if (inSearch) this.evictedInSearch.push(slot);
      else this.release(slot);
    }
  }

  private release(slot: number): void {
    this.pool.release(this.address[slot], this.classes[slot]);
    this.freeSlots.push(slot);
  }

  /** Between searches: gives back what the last search evicted, and compacts the pool if it outgrew the budget. */
  private giveBackEvicted(): void {
    for (const slot of this.evictedInSearch) this.release(slot);
    this.evictedInSearch.length = 0;
    if (4 * this.pool.capacity > 2 * this.options.maxBytes + COMPACT_SLACK) this.compact();
  }

  /** Copies every kept analysis into a fresh pool, leaving the freed regions of the old one behind. */
  private compact(): void {
    const fresh = new RegionPool({ floats: false, typedFrom: 0 });
    for (const slot of this.slots.values()) {
      const from = this.address[slot];
      const to = fresh.allocate(this.classes[slot]);
      const count = this.bodyLengths[slot] + this.distinctLengths[slot] + this.titleLengths[slot];
      const start = this.pool.offsetOf(from);
      fresh
        .typedIntsOf(to)
        .set(this.pool.typedIntsOf(from).subarray(start, start + count), fresh.offsetOf(to));
      this.address[slot] = to;
    }
    this.pool = fresh;
    this.freeSlots.length = 0;
    const kept = new Set(this.slots.values());
    for (let slot = 0; slot < this.opened; slot++) if (!kept.has(slot)) this.freeSlots.push(slot);
  }

  /** Writes the ids of `terms` (in their order) into `out` from `at`, giving new terms the next id. */
  private intern(terms: readonly string[], out: Uint32Array, at: number): void {
    for (let i = 0; i < terms.length; i++) {
      let id = this.ids.get(terms[i]);
      if (id === undefined) this.ids.set(terms[i], (id = this.ids.size));
      out[at + i] = id;
    }
  }
}
