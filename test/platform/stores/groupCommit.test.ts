import { GroupCommit, ItemFailure, insertGroup } from '../../../platform/stores/groupCommit';
import { mergeUpserts } from '../../../services/brain/graph/upsertCoalescer';
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A flush that records its batches and stays in flight until `release` is called. */
function heldFlush(fail?: (items: number[]) => boolean) {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const flush = (items: number[]) => {
    batches.push(items);
    return new Promise<number[]>((resolve, reject) => {
      releases.push(() =>
        fail?.(items) ? reject(new Error('store down')) : resolve(items.map((i) => i * 10)),
      );
    });
  };
  const release = async () => {
    releases.shift()?.();
    await turn();
    await turn();
  };
  return { batches, flush, release };
}

describe('GroupCommit gathering one turn', () => {
  it('writes the items of one turn together, then those submitted meanwhile; each gets its own result', async () => {
    const { batches, flush, release } = heldFlush();
    const group = new GroupCommit(flush, { gatherTurn: true });
    const first = [group.submit(1), group.submit(2)];
    await turn();
    expect(batches).toEqual([[1, 2]]);
    const later = [group.submit(3), group.submit(4)];
    await release();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40]);
  });

  it('rejects every item of a failed batch, and the next batch still goes', async () => {
    const { batches, flush, release } = heldFlush((items) => items.includes(2));
    const group = new GroupCommit(flush, { gatherTurn: true });
    const first = group.submit(1);
    await turn();
    const failed = Promise.allSettled([group.submit(2), group.submit(3)]);
    await release();
    const after = group.submit(4);
    await release();
    await release();
    expect(await first).toBe(10);
    expect(await failed).toEqual([
      { status: 'rejected', reason: new Error('store down') },
      { status: 'rejected', reason: new Error('store down') },
    ]);
    expect(await after).toBe(40);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });
});

describe('GroupCommit', () => {
  it('writes the first item at once and the items queued meanwhile together, each caller settling with its own', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const writer = new GroupCommit<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => (item === 3 ? new ItemFailure(new Error('three refused')) : undefined));
    });

    const first = writer.submit(1);
    const rest = [2, 3, 4].map((item) => writer.submit(item));
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
    const writer = new GroupCommit<string>(
      async (items) => {
        batches.push(items);
        if (items.includes('bad')) throw new Error('store down');
        return [];
      },
      { maxBatch: 2 },
    );

    const results = await Promise.allSettled(['a', 'b', 'bad', 'c', 'd'].map((item) => writer.submit(item)));

    expect(batches).toEqual([['a'], ['b', 'bad'], ['c', 'd']]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
  });

  it('insertGroup gives a refused document (a duplicate id) its own error and writes the others', async () => {
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
    const writer = insertGroup(collection);

    const results = await Promise.allSettled(['m1', 'm2', 'm1', 'm3'].map((_id) => writer.submit({ _id })));

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
