import { readdirSync, readFileSync } from 'node:fs';

/** Thread names that say nothing of the work: V8's helpers (GC, compiler), libuv's pool, unnamed worker threads. */
const GENERIC = /^(V8Worker|WorkerThread|libuv-worker|DelayedTaskSche|SignalInspector|node)$/;

/**
 * CPU time (ms) of a process's threads so far (this process unless `pid` is given), by name: `event loop` (the
 * main thread), the threads the platform names (`mongo-engine`, `qdrant-engine`, `chunker`, `offline-embed`,
 * `sentence-enc`, `louvain`: platform/threadName.ts) and `other` (V8's garbage-collection and compiler helpers,
 * libuv's pool; with `BENCH_THREAD_NAMES=1`, each by its thread name). From /proc's schedstat; empty where there is
 * no /proc.
 */
export function threadCpuMs(pid: number | 'self' = 'self'): Map<string, number> {
  const byName = new Map<string, number>();
  const main = pid === 'self' ? process.pid : pid;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tasks) {
    try {
      const ms = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const name =
        Number(tid) === main
          ? 'event loop'
          : !GENERIC.test(comm)
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
