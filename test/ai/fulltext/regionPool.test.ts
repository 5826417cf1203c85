import { MAX_SHARED_CLASS, RegionPool } from '../../../ai/fulltext/regionPool';

/** Fills a region with `value` (ints) and `value / 2` (floats). */
function fill(pool: RegionPool, address: number, size: number, value: number): void {
  const at = pool.offsetOf(address);
  for (let k = 0; k < size; k++) {
    pool.intsOf(address)[at + k] = value;
    pool.floatsOf(address)[at + k] = value / 2;
  }
}

function holds(pool: RegionPool, address: number, size: number, value: number): boolean {
  const at = pool.offsetOf(address);
  for (let k = 0; k < size; k++)
    if (pool.intsOf(address)[at + k] !== value || pool.floatsOf(address)[at + k] !== value / 2) return false;
  return true;
}

describe('RegionPool', () => {
  it('names the smallest size class that holds a count', () => {
    expect([0, 1, 2, 3, 4, 5, 4096, 4097].map(RegionPool.sizeClassFor)).toEqual([0, 0, 1, 2, 2, 3, 12, 13]);
  });

  it('hands out regions that never overlap, across pages and size classes', () => {
    const pool = new RegionPool();
    const regions: Array<{ address: number; size: number; value: number }> = [];
    let seed = 7;
    for (let value = 1; value <= 3000; value++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const sizeClass = seed % 9;
      const address = pool.allocate(sizeClass);
      fill(pool, address, 1 << sizeClass, value);
      regions.push({ address, size: 1 << sizeClass, value });
    }
    expect(regions.every((r) => holds(pool, r.address, r.size, r.value))).toBe(true);
    expect(pool.capacity).toBeGreaterThanOrEqual(regions.reduce((sum, r) => sum + r.size, 0));
  });

  it('reuses released regions of the same class, and the rest of a page it leaves', () => {
    const pool = new RegionPool();
    const first = pool.allocate(3);
    pool.release(first, 3);
    expect(pool.allocate(3)).toBe(first);
    // The first page holds 16 entries: a 16-entry region opens a second page of 32, and the first page's other 8
    // entries go to the free lists; once the second page is full they are handed out before a third opens.
    pool.allocate(4);
    pool.allocate(4);
    expect(pool.capacity).toBe(48);
    pool.allocate(3);
    expect(pool.capacity).toBe(48);
    pool.allocate(0);
    expect(pool.capacity).toBe(48 + 64);
  });

  it('gives a region larger than the shared classes a page of its own and drops it on release', () => {
    const pool = new RegionPool();
    const small = pool.allocate(0);
    fill(pool, small, 1, 5);
    const large = pool.allocate(MAX_SHARED_CLASS + 2);
    expect(pool.offsetOf(large)).toBe(0);
    fill(pool, large, 1 << (MAX_SHARED_CLASS + 2), 9);
    const before = pool.capacity;
    pool.release(large, MAX_SHARED_CLASS + 2);
    expect(pool.capacity).toBe(before - (1 << (MAX_SHARED_CLASS + 2)));
    expect(holds(pool, small, 1, 5)).toBe(true);
    const again = pool.allocate(MAX_SHARED_CLASS + 1);
    fill(pool, again, 1 << (MAX_SHARED_CLASS + 1), 11);
    expect(holds(pool, small, 1, 5)).toBe(true);
  });

  it("starts small, so an index of one player's memories costs a few kilobytes", () => {
    const pool = new RegionPool();
    pool.allocate(0);
    expect(pool.capacity).toBe(16);
    pool.clear();
    expect(pool.capacity).toBe(0);
  });
});

describe('RegionPool pages', () => {
  it('keeps small pages as arrays of doubles and large ones as typed arrays, or every page typed on request', () => {
    const pool = new RegionPool();
    const small = pool.allocate(2);
    const large = pool.allocate(MAX_SHARED_CLASS + 1);
    expect(Array.isArray(pool.intsOf(small))).toBe(true);
    expect(pool.intsOf(large)).toBeInstanceOf(Int32Array);
    expect(pool.floatsOf(large)).toBeInstanceOf(Float64Array);
    expect(() => pool.typedIntsOf(small)).toThrow(TypeError);

    const typed = new RegionPool({ floats: false, typedFrom: 0 });
    const region = typed.allocate(2);
    expect(typed.typedIntsOf(region)).toBeInstanceOf(Int32Array);
    expect(typed.floatsOf(region)).toHaveLength(0);
  });
});
