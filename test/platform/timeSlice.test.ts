import { BULK_TURN_MS, bulkSlice, bulkTurnSpent, nextBulkTurn } from '../../platform/timeSlice';
import { busyFor, longestStallDuring } from '../helpers/loopStall';

/** A loop of bulk work: `steps` steps of `stepMs` each, `bulkSlice()` before every step; notes each step done. */
async function bulkLoop(name: string, steps: number, stepMs: number, done: string[]): Promise<void> {
  for (let step = 0; step < steps; step++) {
    await bulkSlice();
    busyFor(stepMs);
    done.push(name);
  }
}

describe('the shared bulk budget (platform/timeSlice)', () => {
  it('holds the loop for about one budget per turn however many bulk loops run at once', async () => {
    const done: string[] = [];
    // Four loops of 60 ms each: with a 10 ms budget per loop (the old way) one turn ran a slice of each, ~40 ms.
    const { longestMs } = await longestStallDuring(() =>
      Promise.all(['a', 'b', 'c', 'd'].map((name) => bulkLoop(name, 30, 2, done))),
    );
    expect(done).toHaveLength(120);
    expect(longestMs).toBeLessThan(BULK_TURN_MS + 12);
  });

  it('gives the waiting loops their turns round robin, so none waits for another to finish', async () => {
    const done: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((name) => bulkLoop(name, 20, 3, done)));
    // When the first loop finishes, the others have done most of their steps too.
    const firstFinished = done.findIndex(
      (_, i) => done.slice(0, i + 1).filter((n) => n === done[i]).length === 20,
    );
    const others = done.slice(0, firstFinished + 1).filter((name) => name !== done[firstFinished]);
    expect(others.length).toBeGreaterThanOrEqual(2 * 20 - 12);
  });

  it('resolves at once while the turn has budget left, and waits for a turn once it is spent', async () => {
    await nextBulkTurn();
    let turned = false;
    setImmediate(() => (turned = true));
    await bulkSlice();
    await bulkSlice();
    expect(turned).toBe(false);
    busyFor(BULK_TURN_MS + 1);
    expect(bulkTurnSpent()).toBe(true);
    await bulkSlice();
    expect(turned).toBe(true);
  });

  it("keeps running under a test's fake timers", async () => {
    busyFor(BULK_TURN_MS + 1);
    jest.useFakeTimers();
    try {
      await expect(bulkSlice()).resolves.toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});
