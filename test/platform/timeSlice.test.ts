import { BULK_TURN_MS, bulkSlice, bulkTurnSpent, nextBulkTurn } from '../../platform/timeSlice';
import { busyFor, workPerTurn } from '../helpers/loopStall';

/** A loop of bulk work: `steps` steps of `stepMs` each, `bulkSlice()` before every step; notes each step done. */
async function bulkLoop(name: string, steps: number, stepMs: number, done: string[]): Promise<void> {
  for (let step = 0; step < steps; step++) {
    await bulkSlice();
    busyFor(stepMs);
    done.push(name);
  }
}

describe('the shared bulk budget (platform/timeSlice)', () => {
  it('runs about one budget of steps per turn of the event loop however many bulk loops run at once', async () => {
    // Each step notes the turn of the event loop it ran in.
    const steps = workPerTurn();
    const loop = async () => {
      for (let i = 0; i < 30; i++) {
        await bulkSlice();
        busyFor(2);
        steps.note();
      }
    };
    // Four loops of 30 steps of 2 ms: with a 10 ms budget per loop (the old way) one turn ran about 5 steps of each,
    // about 20. A busy machine only makes fewer steps fit in a turn (the budget is wall time), never more.
    await Promise.all([loop(), loop(), loop(), loop()]);
    const { total, most } = steps.stop();
    expect(total).toBe(120);
    expect(most).toBeLessThanOrEqual(BULK_TURN_MS / 2 + 2);
  });

  it('gives the waiting loops their turns round robin, so none waits for another to finish', async () => {
    const done: string[] = [];
    await Promise.all(['a', 'b', 'c'].map((name) => bulkLoop(name, 20, 3, done)));
    // When the first loop finishes, the others have done much of theirs too (a loop first in line for every turn
    // would have finished before they began).
    const firstFinished = done.findIndex(
      (_, i) => done.slice(0, i + 1).filter((n) => n === done[i]).length === 20,
    );
    const others = done.slice(0, firstFinished + 1).filter((name) => name !== done[firstFinished]);
    expect(others.length).toBeGreaterThanOrEqual(20);
  });

  it('resolves at once while the turn has budget left, and waits for a turn once it is spent', async () => {
    // Within a fresh turn two slices resolve with no turn between; tried a few times, since a busy machine may
    // take the thread away for a whole budget between two lines.
    let turned = true;
    for (let attempt = 0; attempt < 5 && turned; attempt++) {
      await nextBulkTurn();
      turned = false;
      setImmediate(() => (turned = true));
      await bulkSlice();
      await bulkSlice();
    }
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
