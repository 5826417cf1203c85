import { GroupCommit } from '../../../services/economy/groupCommit';

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

describe('GroupCommit', () => {
  it('writes the items of one turn together, then those submitted meanwhile; each gets its own result', async () => {
    const { batches, flush, release } = heldFlush();
    const group = new GroupCommit(flush);
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
    const group = new GroupCommit(flush);
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
