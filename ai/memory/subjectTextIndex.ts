import { Bm25Index } from '../fulltext/bm25Index';
import { queryTerms } from '../text/terms';

/** What the index keeps of a memory besides its terms: enough to filter by tier without a store round trip. */
export interface IndexedMemory {
  id: string;
  tier: string;
  content: string;
  /** The normalised-content hash (exact repeats are found without a store round trip). */
  hash: string;
}

/**
 * The fulltext side of memory recall: one BM25 index per subject, in process memory, so a subject's search never
 * scans another's memories. A subject is loaded on first use (`load`) from the store and then kept in step by this
 * process's writes; `forgetSubject` drops it (erasure, or to make a process re-read what others wrote).
 */
export class SubjectTextIndex {
  private readonly subjects = new Map<
    string,
    {
      bm25: Bm25Index;
      memories: Map<string, IndexedMemory>;
      byHash: Map<string, string>;
    }
  >();

  /** Whether the subject's memories are loaded. */
  has(subject: string): boolean {
    return this.subjects.has(subject);
  }

  /** Replaces the subject's index with these memories. */
  load(subject: string, memories: Iterable<IndexedMemory>): void {
    this.subjects.set(subject, {
      bm25: new Bm25Index(),
      memories: new Map(),
      byHash: new Map(),
    });
    for (const memory of memories) this.add(subject, memory);
  }

  /** Adds or replaces one memory (no-op while the subject is not loaded: its load will read it). */
  add(subject: string, memory: IndexedMemory): void {
    const entry = this.subjects.get(subject);
    if (!entry) return;
    if (entry.memories.has(memory.id)) this.remove(subject, [memory.id]);
    entry.bm25.add(memory.id, [{ text: memory.content, boost: 1 }]);
    entry.memories.set(memory.id, memory);
    entry.byHash.set(`${memory.tier}|${memory.hash}`, memory.id);
  }

  /** Removes memories by id. */
  remove(subject: string, ids: readonly string[]): void {
    const entry = this.subjects.get(subject);
    if (!entry) return;
    for (const id of ids) {
      const memory = entry.memories.get(id);
      if (!memory) continue;
      entry.bm25.remove(id);
      entry.memories.delete(id);
      if (entry.byHash.get(`${memory.tier}|${memory.hash}`) === id)
        entry.byHash.delete(`${memory.tier}|${memory.hash}`);
    }
  }

  /** Drops a subject's index. */
  forgetSubject(subject: string): void {
    this.subjects.delete(subject);
  }

  /**
   * The best `limit` memory ids of the subject for the query, within the given tiers; `maxCandidates` makes it the
   * bounded, approximate search of Bm25Index (near-duplicate detection).
   */
  search(
    subject: string,
    query: string,
    tiers: readonly string[],
    limit: number,
    maxCandidates?: number,
  ): { id: string; score: number }[] {
    const entry = this.subjects.get(subject);
    if (!entry) return [];
    const allowed = new Set(tiers);
    return entry.bm25.search([...queryTerms(query)], limit, {
      accept: (id) => allowed.has(entry.memories.get(id)?.tier ?? ''),
      maxCandidates,
    });
  }

  /**
   * Inverse document frequency of a term among the subject's memories, BM25's ln(1 + (N − df + 0.5) / (df + 0.5)):
   * a name in every memory weighs little, a word no memory holds weighs most.
   */
  idf(subject: string, term: string): number {
    // An unloaded subject is an empty index: ln(1 + 0.5 / 0.5).
    return this.subjects.get(subject)?.bm25.idf(term) ?? Math.LN2;
  }

  /** The indexed memory with this id. */
  get(subject: string, id: string): IndexedMemory | undefined {
    return this.subjects.get(subject)?.memories.get(id);
  }

  /** The id of the subject's memory in `tier` whose content hash is `hash`. */
  findByHash(subject: string, tier: string, hash: string): string | undefined {
    return this.subjects.get(subject)?.byHash.get(`${tier}|${hash}`);
  }

  /** Number of memories indexed for a subject. */
  size(subject: string): number {
    return this.subjects.get(subject)?.memories.size ?? 0;
  }
}
