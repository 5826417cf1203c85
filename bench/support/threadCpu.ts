import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (ms) of this process's threads so far, by name: `event loop` (the main thread), the embedded engines'
 * threads (`mongo-engine`, `qdrant-engine`, as they name themselves) and `other` (V8's garbage-collection and
 * compiler helpers, libuv's pool; with `BENCH_THREAD_NAMES=1`, each by its thread name). From /proc's schedstat; empty
 * where there is no /proc.
 */
export function threadCpuMs(): Map<string, number> {
  const byName = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return byName;
  }
  for (const tid of tasks) {
    try {
      const ms = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const name =
        Number(tid) === process.pid
          ? 'event loop'
          : comm.endsWith('-engine')
            ? comm
            : process.env.BENCH_THREAD_NAMES === '1'
              ? `other (${comm.replace(/[\d-]+$/, '').trim()})`
              : 'other';
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}

/** What each thread used between two readings, per 1,000 of `units`, as "name 12.3" parts (largest first). */
export function threadCpuPer1000(
  before: Map<string, number>,
  after: Map<string, number>,
  units: number,
): string {
  return [...after]
    .map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / (units / 1000)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}
