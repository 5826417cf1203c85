/**
 * Group commit for store writes: items written while a write is in flight go out together in the next one (at most
 * `maxBatch` a call), and each caller's promise settles when its own item is written. An idle writer adds no delay
 * (the first item leaves at once, alone); under load one round trip carries many items. One write at a time.
 */
export class CoalescingWriter<T> {
  private pending: { item: T; done: (error?: unknown) => void }[] = [];
  private flushing = false;

  /**
   * `write` stores a batch; it may answer an error per item (by position, `undefined` for written ones) instead of
   * throwing, when some items failed and the rest were written.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<readonly unknown[] | void>,
    private readonly maxBatch = 256,
  ) {}

  /** Queues an item; resolves once it is written, rejects with its own error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, done: (error) => (error === undefined ? resolve() : reject(error)) });
      void this.flush();
    });
  }

  /** Items queued and not yet handed to a write. */
  get queued(): number {
    return this.pending.length;
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        try {
          const errors = await this.write(batch.map((entry) => entry.item));
          batch.forEach((entry, index) => entry.done(errors?.[index]));
        } catch (error) {
          for (const entry of batch) entry.done(error ?? new Error('batched write failed'));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

/** A collection's batched inserts: one unordered insertMany per batch, each document's own error (a duplicate id, say) to its caller. */
export function insertWriter<T>(collection: {
  insertMany(docs: T[], options: { ordered: false }): Promise<unknown>;
}): CoalescingWriter<T> {
  return new CoalescingWriter<T>(async (docs) => {
    try {
      await collection.insertMany(docs, { ordered: false });
      return [];
    } catch (error) {
      const writeErrors = (error as { writeErrors?: { index: number; errmsg?: string }[] }).writeErrors;
      if (!Array.isArray(writeErrors)) throw error;
      const errors: unknown[] = [];
      for (const failed of writeErrors) errors[failed.index] = new Error(failed.errmsg ?? 'insert failed');
      return errors;
    }
  });
}
