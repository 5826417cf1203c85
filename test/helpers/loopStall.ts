/**
 * Runs `work` while a chain of `setImmediate` callbacks notes every turn of the event loop, and answers its result
 * with the longest time the loop went without a turn (ms): how long a request arriving meanwhile would have waited
 * behind it. For tests that some background work yields to the loop instead of holding it.
 */
export async function longestStallDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; longestMs: number }> {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await work();
    return { result, longestMs: Math.max(longest, performance.now() - last) };
  } finally {
    running = false;
  }
}

/** Counts the turns of the event loop (a chain of `setImmediate` callbacks) while `work` runs. */
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await work();
  } finally {
    running = false;
  }
  return turns;
}

/** Keeps the thread busy for `ms` (a stand-in for work that takes that long). */
export function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * Counts work per turn of the event loop (turns counted by a chain of `setImmediate` callbacks): `note()` records one
 * piece of work in the current turn; `stop()` ends the chain and answers the most pieces any one turn held. Unlike a
 * wall-clock stall, this cannot be failed by a busy machine taking the thread away.
 */
export function workPerTurn(): { note: () => void; stop: () => { total: number; most: number } } {
  let turn = 0;
  let running = true;
  const counts = new Map<number, number>();
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    note: () => void counts.set(turn, (counts.get(turn) ?? 0) + 1),
    stop: () => {
      running = false;
      const values = [...counts.values()];
      return { total: values.reduce((sum, n) => sum + n, 0), most: Math.max(0, ...values) };
    },
  };
}
