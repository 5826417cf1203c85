import { timeOrderedId } from '../../../ai/memory/timeOrderedId';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a UUID version 7 whose first 48 bits are the milliseconds', () => {
    const ms = Date.UTC(2026, 10, 27, 4, 30);
    const id = timeOrderedId(ms);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
  });

  it('sorts by time, and ids of the same millisecond differ, across refills of its random pool', () => {
    const ids: string[] = [];
    // 1,000 ids use 16,000 random bytes: the 4 KB pool is refilled three times.
    for (let i = 0; i < 1_000; i++) ids.push(timeOrderedId(1_700_000_000_000 + Math.floor(i / 10)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 10; i < ids.length; i += 10) expect(ids[i] > ids[i - 1]).toBe(true);
    // The random part is not all zeros and varies (a pool left unfilled would repeat).
    const randomParts = new Set(ids.map((id) => id.slice(-12)));
    expect(randomParts.size).toBe(ids.length);
  });
});
