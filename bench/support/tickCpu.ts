/**
 * The main thread's CPU inside the area rooms' ticks, for bench/mudCrowd.ts: how much of the event loop's CPU per
 * action is the ticks' (and within them the views' reconciliation and the patches' encoding and writes), measured
 * with `process.threadCpuUsage()` (this thread only, to the microsecond) around each call. The rooms' methods are
 * wrapped on the instances (the tick interval calls `this.tick()`, so the wrapper is what runs).
 */
export interface TickCpu {
  ticks: number;
  /** Main-thread CPU in ms: the whole tick, the views' reconciliation, and the patch (encoding and socket writes). */
  tickMs: number;
  syncMs: number;
  patchMs: number;
}

type Method = (...args: unknown[]) => unknown;

const threadMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Starts counting on `rooms` (AreaRoom instances); the returned function stops and answers the totals. */
export function watchTickCpu(rooms: unknown[]): () => TickCpu {
  const totals: TickCpu = { ticks: 0, tickMs: 0, syncMs: 0, patchMs: 0 };
  const restore: Array<() => void> = [];
  const wrap = (owner: Record<string, unknown>, name: string, add: (ms: number) => void) => {
    const own = owner[name] as Method;
    const hadOwn = Object.prototype.hasOwnProperty.call(owner, name);
    owner[name] = function (this: unknown, ...args: unknown[]) {
      const start = threadMs();
      try {
        return own.apply(this, args);
      } finally {
        add(threadMs() - start);
      }
    };
    restore.push(() => {
      if (hadOwn) owner[name] = own;
      else delete owner[name];
    });
  };
  for (const room of rooms) {
    if (!room) continue;
    const r = room as Record<string, unknown> & {
      visibility: Record<string, unknown>;
      _serializer: Record<string, unknown>;
    };
    wrap(r, 'tick', (ms) => {
      totals.ticks += 1;
      totals.tickMs += ms;
    });
    wrap(r.visibility, 'sync', (ms) => (totals.syncMs += ms));
    wrap(r._serializer, 'applyPatches', (ms) => (totals.patchMs += ms));
  }
  return () => {
    for (const undo of restore) undo();
    return totals;
  };
}
