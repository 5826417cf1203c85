import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * A function to await between the steps of a long loop on the event loop: it yields (a `setImmediate`, so sockets
 * are polled and waiting requests run) once `sliceMs` have passed since the last yield, and costs a clock read
 * otherwise. Loops over a bulk ingest's chunks or a graph round's rows use it so no single task holds the loop.
 */
export function timeSlice(sliceMs = 10): () => Promise<void> {
  let started = performance.now();
  return async () => {
    if (performance.now() - started < sliceMs) return;
    await yieldToLoop();
    started = performance.now();
  };
}
