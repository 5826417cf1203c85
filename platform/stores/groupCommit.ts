/**
 * Group commit: the items submitted while one store call is in flight go together in the next one, so concurrent
 * requests share a round trip (the embedded engine's cost is per call, not per document). An idle group writes at
 * once; with `gatherTurn` each batch first waits one turn of the event loop (`setImmediate`, no timer) so the
 * callers ready in that turn join it. `flush` answers one result per item, in order, or an `ItemFailure` for an
 * item that failed alone; when it throws, every item of that batch gets the error (callers must be safe to retry).
 */
export class GroupCommit<T, R = void> {
  private queue: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<readonly (R | ItemFailure)[]>,
    private readonly options: { maxBatch?: number; gatherTurn?: boolean } = {},
  ) {}

  /** Adds `item` to the next batch and answers its result once that batch is written. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  /** Items waiting for a batch. */
  get queued(): number {
    return this.queue.length;
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        if (this.options.gatherTurn) await new Promise((resolve) => setImmediate(resolve));
        const batch = this.queue.splice(0, this.options.maxBatch ?? this.queue.length);
        try {
          const results = await this.flush(batch.map((entry) => entry.item));
          batch.forEach((entry, index) => {
            const result = results[index];
            if (result instanceof ItemFailure) entry.reject(result.error);
            else entry.resolve(result as R);
          });
        } catch (error) {
          for (const entry of batch) entry.reject(error ?? new Error('batched write failed'));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

/** A flush's answer for one item that failed while the rest of its batch was written. */
export class ItemFailure {
  constructor(readonly error: unknown) {}
}

/** A collection's batched inserts: one unordered insertMany per batch, each document's own error (a duplicate id, say) to its caller. */
export function insertGroup<T>(
  collection: { insertMany(docs: T[], options: { ordered: false }): Promise<unknown> },
  maxBatch = 256,
): GroupCommit<T> {
  return new GroupCommit<T>(
    async (docs) => {
      const results: (undefined | ItemFailure)[] = docs.map(() => undefined);
      try {
        await collection.insertMany(docs, { ordered: false });
      } catch (error) {
        const writeErrors = (error as { writeErrors?: { index: number; errmsg?: string }[] }).writeErrors;
        if (!Array.isArray(writeErrors)) throw error;
        for (const failed of writeErrors)
          results[failed.index] = new ItemFailure(new Error(failed.errmsg ?? 'insert failed'));
      }
      return results;
    },
    { maxBatch },
  );
}
