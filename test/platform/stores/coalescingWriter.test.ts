import { CoalescingWriter, insertWriter } from '../../../platform/stores/coalescingWriter';
import { mergeUpserts } from '../../../services/brain/graph/upsertCoalescer';

describe('CoalescingWriter', () => {
  it('writes the first item at once and the items queued meanwhile together, each caller settling with its own', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const writer = new CoalescingWriter<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => (item === 3 ? new Error('three refused') : undefined));
    });

    const first = writer.add(1);
    const rest = [2, 3, 4].map((item) => writer.add(item));
    expect(writer.queued).toBe(3);
    release();
    const settled = await Promise.allSettled([first, ...rest]);

    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(settled.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe('three refused');
  });

  it('rejects every item of a batch whose write threw, splits at maxBatch and keeps going', async () => {
    const batches: string[][] = [];
    const writer = new CoalescingWriter<string>(async (items) => {
      batches.push(items);
      if (items.includes('bad')) throw new Error('store down');
    }, 2);

    const results = await Promise.allSettled(['a', 'b', 'bad', 'c', 'd'].map((item) => writer.add(item)));

    expect(batches).toEqual([['a'], ['b', 'bad'], ['c', 'd']]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
  });

  it('insertWriter gives a refused document (a duplicate id) its own error and writes the others', async () => {
    const stored = new Map<string, object>();
    const collection = {
      async insertMany(docs: { _id: string }[]) {
        const writeErrors = [];
        for (const [index, doc] of docs.entries()) {
          if (stored.has(doc._id)) writeErrors.push({ index, errmsg: `E11000 duplicate key ${doc._id}` });
          else stored.set(doc._id, doc);
        }
        if (writeErrors.length > 0) throw Object.assign(new Error('bulk write failed'), { writeErrors });
      },
    };
    const writer = insertWriter(collection);

    const results = await Promise.allSettled(['m1', 'm2', 'm1', 'm3'].map((_id) => writer.add({ _id })));

    expect([...stored.keys()]).toEqual(['m1', 'm2', 'm3']);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[2] as PromiseRejectedResult).reason.message).toContain('duplicate key m1');
  });
});

describe('mergeUpserts', () => {
  it('folds upserts of one id: counters summed, dates raised, the first insert fields kept', () => {
    const early = new Date('2026-01-01');
    const late = new Date('2026-02-01');

    const merged = mergeUpserts([
      {
        _id: 'e1',
        setOnInsert: { name: 'Ann', first_seen: early },
        inc: { mention_count: 1 },
        max: { last_seen: late },
      },
      { _id: 'e2', setOnInsert: { name: 'Tom' }, inc: { mention_count: 1 } },
      {
        _id: 'e1',
        setOnInsert: { name: 'Ann', first_seen: late },
        inc: { mention_count: 2 },
        max: { last_seen: early },
      },
    ]);

    expect(merged).toEqual([
      {
        _id: 'e1',
        setOnInsert: { name: 'Ann', first_seen: early },
        inc: { mention_count: 3 },
        max: { last_seen: late },
      },
      { _id: 'e2', setOnInsert: { name: 'Tom' }, inc: { mention_count: 1 }, max: {} },
    ]);
  });
});
