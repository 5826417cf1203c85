import { writeFileSync } from 'node:fs';

/**
 * Names the calling OS thread (Linux allows 15 characters) so `top -H`, `ps -L` and the benches' per-thread CPU
 * tell the platform's worker threads (`chunker`, `embedder`, `mongo-engine`, …) from the event loop and V8's
 * helper threads. Where /proc is not there (not Linux), the thread keeps its name: a name is only a label.
 */
export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // Not Linux, or /proc is not mounted.
  }
}
