import fs from 'node:fs';

const CLOCK_TICKS = 100;

/** User+system CPU seconds of the processes (from /proc/<pid>/stat; 0 for one that is gone or without /proc). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process exited
    }
  }
  return ticks / CLOCK_TICKS;
}

/** Resident memory of a process in bytes (from /proc/<pid>/status; 0 when unknown). */
export function rssBytes(pid: number): number {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
