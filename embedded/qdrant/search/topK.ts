import { ranksBefore, type Distance } from './distance';

/** One search hit: the point's internal label and its Qdrant score. */
export interface Hit {
  label: number;
  score: number;
}

/**
 * Keeps the best `k` hits seen so far in a binary heap whose root is the worst kept hit, so each offered
 * hit costs O(log k) and the common "not good enough" case costs one comparison.
 */
export class TopK {
  private readonly heap: Hit[] = [];

  constructor(
    private readonly k: number,
    private readonly distance: Distance,
  ) {}

  /** Offers a hit; it is kept only if it beats the current worst of a full set. */
  offer(label: number, score: number): void {
    if (this.k <= 0) return;
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push({ label, score });
      this.siftUp(heap.length - 1);
      return;
    }
    // Checked without allocating: most offers in an exact scan lose to the current worst.
    const worst = heap[0];
    const wins = score === worst.score ? label < worst.label : ranksBefore(this.distance, score, worst.score);
    if (!wins) return;
    heap[0] = { label, score };
    this.siftDown(0);
  }

  /** The kept hits, best first (ties broken by label for a stable order). */
  sorted(): Hit[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }

  private better(a: Hit, b: Hit): boolean {
    if (a.score !== b.score) return ranksBefore(this.distance, a.score, b.score);
    return a.label < b.label;
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.better(heap[parent], heap[index])) break;
      [heap[parent], heap[index]] = [heap[index], heap[parent]];
      index = parent;
    }
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && this.better(heap[worst], heap[left])) worst = left;
      if (right < heap.length && this.better(heap[worst], heap[right])) worst = right;
      if (worst === index) return;
      [heap[worst], heap[index]] = [heap[index], heap[worst]];
      index = worst;
    }
  }
}
