import { Bm25Index } from '../fulltext/bm25Index';
import { queryTerms } from '../text/terms';

/** What the index keeps of a memory besides its terms: enough to filter by tier without a store round trip. */
export interface IndexedMemory {
  id: string;
  tier: string;
  content: string;
}

/**
 * The fulltext side of memory recall: one BM25 index per subject, in process memory, so a subject's search never
 * scans another's memories. A subject is loaded on first use (`load`) from the store and then kept in step by this
 * process's writes; `forgetSubject` drops it (erasure, or to make a process re-read what others wrote).
 */
export class SubjectTextIndex {
  private readonly subjects = new Map<string, { bm25: Bm25Index; tiers: Map<string, string> }>();

  /** Whether the subject's memories are loaded. */
  has(subject: string): boolean {
    return this.subjects.has(subject);
  }

  /** Replaces the subject's index with these memories. */
  load(subject: string, memories: Iterable<IndexedMemory>): void {
    this.subjects.set(subject, { bm25: new Bm25Index(), tiers: new Map() });
    for (const memory of memories) this.add(subject, memory);
  }

  /** Adds or replaces one memory (no-op while the subject is not loaded: its load will read it). */
  add(subject: string, memory: IndexedMemory): void {
    const entry = this.subjects.get(subject);
    if (!entry) return;
    entry.bm25.add(memory.id, [{ text: memory.content, boost: 1 }]);
    entry.tiers.set(memory.id, memory.tier);
  }

  /** Removes memories by id. */
  remove(subject: string, ids: readonly string[]): void {
    const entry = this.subjects.get(subject);
    if (!entry) return;
    for (const id of ids) {
      entry.bm25.remove(id);
      entry.tiers.delete(id);
    }
  }

  /** Drops a subject's index. */
  forgetSubject(subject: string): void {
    this.subjects.delete(subject);
  }

  /** The best `limit` memory ids of the subject for the query, within the given tiers. */
  search(
    subject: string,
    query: string,
    tiers: readonly string[],
    limit: number,
  ): { id: string; score: number }[] {
    const entry = this.subjects.get(subject);
    if (!entry) return [];
    const allowed = new Set(tiers);
    return entry.bm25.search([...queryTerms(query)], limit, (id) => allowed.has(entry.tiers.get(id) ?? ''));
  }

  /** Number of memories indexed for a subject. */
  size(subject: string): number {
    return this.subjects.get(subject)?.tiers.size ?? 0;
  }
}
