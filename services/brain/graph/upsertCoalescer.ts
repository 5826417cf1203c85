import type { Collection } from 'mongoose';
import { GroupCommit } from '../../../platform/stores/groupCommit';

/**
 * A commutative upsert of one document: fields set only when it is created, counters added, dates raised. Any
 * order of such upserts gives the same document, so concurrent ones can be merged and written together.
 */
export interface MergeableUpsert {
  _id: string;
  setOnInsert: Record<string, unknown>;
  inc?: Record<string, number>;
  max?: Record<string, Date>;
}

/**
 * The graph's entity, mention and co-occurrence upserts of concurrent memories, merged by id (counters summed,
 * dates raised, the first creation's fields kept) and written as one unordered bulkWrite per flush on the
 * driver's collection (no mongoose casting: the values are built typed).
 */
export class UpsertCoalescer {
  private readonly writer: GroupCommit<MergeableUpsert>;

  constructor(collection: Collection) {
    this.writer = new GroupCommit<MergeableUpsert>(
      async (items) => {
        await collection.bulkWrite(mergeUpserts(items).map(upsertOperation), { ordered: false });
        return [];
      },
      { maxBatch: 512 },
    );
  }

  /** Writes the upserts (with whatever else is queued); resolves once all of them are stored. */
  async upsert(upserts: readonly MergeableUpsert[]): Promise<void> {
    await Promise.all(upserts.map((upsert) => this.writer.submit(upsert)));
  }
}

/** The driver's bulkWrite operation of an upsert (operators without fields left out: MongoDB refuses them). */
export function upsertOperation(upsert: MergeableUpsert) {
  return {
    updateOne: {
      filter: { _id: upsert._id as never },
      update: {
        $setOnInsert: upsert.setOnInsert,
        ...(upsert.inc && Object.keys(upsert.inc).length > 0 ? { $inc: upsert.inc } : {}),
        ...(upsert.max && Object.keys(upsert.max).length > 0 ? { $max: upsert.max } : {}),
      },
      upsert: true,
    },
  };
}

/** Upserts of the same id folded into one: counters summed, dates raised, the first one's insert fields. */
export function mergeUpserts(upserts: readonly MergeableUpsert[]): MergeableUpsert[] {
  const byId = new Map<string, MergeableUpsert>();
  for (const upsert of upserts) {
    const same = byId.get(upsert._id);
    if (!same) {
      byId.set(upsert._id, { ...upsert, inc: { ...upsert.inc }, max: { ...upsert.max } });
      continue;
    }
    for (const [field, amount] of Object.entries(upsert.inc ?? {}))
      same.inc![field] = (same.inc![field] ?? 0) + amount;
    for (const [field, date] of Object.entries(upsert.max ?? {})) {
      const current = same.max![field];
      if (!current || date > current) same.max![field] = date;
    }
  }
  return [...byId.values()];
}
