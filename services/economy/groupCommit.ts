/**
 * Group commit: the items submitted while one store call is in flight go together in the next one, so concurrent
 * operations share a round trip (the embedded engine's cost is per call, not per document). A batch waits one turn
 * of the event loop before it is written (`setImmediate`, no timer), so the callers ready in that turn join it.
 * `flush` answers one result per item, in order; when it throws, every item of that batch gets the error (callers
 * must be safe to retry, as every economy write is).
 */
export class GroupCommit<T, R> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(private readonly flush: (items: T[]) => Promise<R[]>) {}

  /** Adds `item` to the next batch and answers its result once that batch is written. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      // One turn of the event loop first: the callers that are ready to submit join this batch.
      await new Promise((resolve) => setImmediate(resolve));
      const batch = this.queue.splice(0);
      try {
        const results = await this.flush(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index]));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.flushing = false;
  }
}
