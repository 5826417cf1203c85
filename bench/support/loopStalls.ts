import { performance } from 'node:perf_hooks';

/**
 * The event loop's stalls, told apart from the machine's load: a 1 ms timer notes, at each firing, the wall time and
 * the main thread's own CPU (`process.threadCpuUsage()`) since the last. A gap whose CPU is near its wall time was
 * this process's own work (a long task); a gap with little CPU was the thread waiting for a core (other processes)
 * or for the timer. `monitorEventLoopDelay` cannot tell the two apart, and on a shared 2-core machine the second is
 * often most of it. Long gaps keep their span on the profile's clock (CLOCK_MONOTONIC, µs) to cut a profile to them.
 */
export interface LoopStalls {
  gaps: number;
  /** Wall and own-CPU milliseconds of the gaps, each sorted ascending. */
  wallMs: number[];
  cpuMs: number[];
  /** Gaps with at least `longMs` of own CPU: start and end in monotonic µs, and that CPU. */
  long: Array<{ startUs: bigint; endUs: bigint; cpuMs: number }>;
}

const threadMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Starts the meter; the returned function stops it and answers what it saw. */
export function watchLoopStalls(longMs = 30): () => LoopStalls {
  const wallMs: number[] = [];
  const cpuMs: number[] = [];
  const long: LoopStalls['long'] = [];
  let wall = performance.now();
  let cpu = threadMs();
  let mono = process.hrtime.bigint();
  let timer: NodeJS.Timeout;
  const fire = () => {
    const nowWall = performance.now();
    const nowCpu = threadMs();
    const nowMono = process.hrtime.bigint();
    wallMs.push(nowWall - wall);
    cpuMs.push(nowCpu - cpu);
    if (nowCpu - cpu >= longMs)
      long.push({ startUs: mono / 1000n, endUs: nowMono / 1000n, cpuMs: nowCpu - cpu });
    wall = nowWall;
    cpu = nowCpu;
    mono = nowMono;
    timer = setTimeout(fire, 1);
  };
  timer = setTimeout(fire, 1);
  return () => {
    clearTimeout(timer);
    const ascending = (a: number, b: number) => a - b;
    return { gaps: wallMs.length, wallMs: wallMs.sort(ascending), cpuMs: cpuMs.sort(ascending), long };
  };
}

/** One line: the gaps' wall and own-CPU p99 and max, and how many held ≥ 50 and ≥ 100 ms of own CPU. */
export function describeLoopStalls(stalls: LoopStalls): string {
  const at = (sorted: number[], q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  const own = (ms: number) => stalls.cpuMs.filter((cpu) => cpu >= ms).length;
  return `event-loop gaps (1 ms timer, ${stalls.gaps}): wall p99 ${at(stalls.wallMs, 0.99).toFixed(1)} ms, max ${at(stalls.wallMs, 1).toFixed(0)} ms; own CPU p99 ${at(stalls.cpuMs, 0.99).toFixed(1)} ms, max ${at(stalls.cpuMs, 1).toFixed(0)} ms; gaps with ≥ 50 ms of own CPU ${own(50)}, ≥ 100 ms ${own(100)}`;
}
