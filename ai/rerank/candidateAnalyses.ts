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
  /** Bytes of kept analyses (typed arrays plus `ENTRY_OVERHEAD` each); the least recently used go first. */
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

/** A kept analysis's cost beyond its typed arrays' bytes: the entries, the three array objects, the chunk id. */
export const ENTRY_OVERHEAD = 440;

/** Distinct values, ascending: a numeric sort of a copy, then repeats dropped in place (no Set per chunk). */
function distinctSorted(ids: Uint32Array): Uint32Array {
  const sorted = ids.slice().sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++)
    if (kept === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i];
  return sorted.slice(0, kept);
}

/** A kept analysis and whether a search read it since the last eviction pass (the clock's second chance). */
interface Kept {
  analysis: Analysis;
  used: boolean;
}

/**
 * Chunks' analyses by chunk id (chunk ids are content hashes: an analysis never goes stale) within a byte budget,
 * and the term → id map they share (term ids are small integers, so a candidate's terms are a typed array and set
 * operations are merges of numbers). The fulltext index hands each chunk's terms over as it indexes them
 * (`remember`), so a search rarely analyses a candidate itself; eviction is a clock (second chance): a read only
 * marks its entry, and the oldest entries not read since the last pass go first.
 */
export class CandidateAnalyses {
  private readonly kept = new Map<string, Kept>();
  private readonly ids = new Map<string, number>();
  private bytes = 0;
  private readonly options: CandidateAnalysesOptions;

  constructor(options: Partial<CandidateAnalysesOptions> = {}) {
    this.options = { ...DEFAULT_ANALYSES_OPTIONS, ...options };
  }

  /** Kept analyses (for tests and stats). */
  get size(): number {
    return this.kept.size;
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
    if (this.ids.size <= this.options.maxTerms) return;
    this.kept.clear();
    this.ids.clear();
    this.bytes = 0;
  }

  /** The candidate's analysis: kept, or worked out now and kept. */
  of(hit: AnalysedText): Analysis {
    const entry = this.kept.get(hit.chunkId);
    if (entry) {
      entry.used = true;
      return entry.analysis;
    }
    return this.remember(
      hit.chunkId,
      analyze(hit.text),
      analyze(`${hit.title} ${hit.symbols.join(' ')} ${hit.source}`),
    );
  }

  /**
   * Keeps a chunk's analysis from terms already worked out (its text's, in order; its title's, symbols' and
   * source's, in any order), as the fulltext index has them when it indexes the chunk. A kept chunk is left as is.
   */
  remember(chunkId: string, textTerms: readonly string[], titleTerms: readonly string[]): Analysis {
    const entry = this.kept.get(chunkId);
    if (entry) return entry.analysis;
    const body = this.intern(textTerms);
    const analysis = { body, distinct: distinctSorted(body), title: distinctSorted(this.intern(titleTerms)) };
    this.kept.set(chunkId, { analysis, used: false });
    this.bytes += sizeOf(analysis);
    if (this.bytes > this.options.maxBytes) this.evict();
    return analysis;
  }

  /** Oldest first: an entry read since the last pass goes to the back unmarked, one not read is dropped. */
  private evict(): void {
    for (const [chunkId, entry] of this.kept) {
      if (this.bytes <= this.options.maxBytes) return;
      this.kept.delete(chunkId);
      if (entry.used) {
        entry.used = false;
        this.kept.set(chunkId, entry);
      } else this.bytes -= sizeOf(entry.analysis);
    }
  }

  /** Ids of `terms` (in their order), giving new terms the next id. */
  private intern(terms: readonly string[]): Uint32Array {
    const out = new Uint32Array(terms.length);
    for (let i = 0; i < terms.length; i++) {
      let id = this.ids.get(terms[i]);
      if (id === undefined) this.ids.set(terms[i], (id = this.ids.size));
      out[i] = id;
    }
    return out;
  }
}

function sizeOf(analysis: Analysis): number {
  return ENTRY_OVERHEAD + analysis.body.byteLength + analysis.distinct.byteLength + analysis.title.byteLength;
}
