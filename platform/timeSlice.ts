import { performance } from 'node:perf_hooks';
import { setImmediate as schedule } from 'node:timers';

/**
 * How long the process's bulk work (a bulk ingest's fulltext updates, graph and RAPTOR upkeep, community detection)
 * may hold the event loop in one turn, all of it together (ms).
 */
export const BULK_TURN_MS = 10;

/**
 * One budget per turn of the event loop, shared by every long loop of bulk work, so that a health probe or a search
 * waits behind at most `BULK_TURN_MS` of it (plus one step) however many such loops run at once. Each loop yielding
 * on its own clock was not enough: with four ingest requests in flight and the enrichment rounds beside them, one
 * check phase ran a 10 ms slice of each back to back (100-175 ms, stop 50) while the sockets waited.
 *
 * Loops waiting for a turn queue here in order; each turn one of them (the oldest) gets a fresh budget, so the
 * loops take turns round robin and sockets are polled between every two.
 */
let turnStarted = -Infinity;
const waiting: Array<() => void> = [];
let pumpQueued = false;

function pump(): void {
  pumpQueued = false;
  const next = waiting.shift();
  turnStarted = performance.now();
  // The waiter's code runs in the microtasks right after this immediate, within the budget just started.
  next?.();
  if (waiting.length > 0) queuePump();
}

function queuePump(): void {
  if (pumpQueued) return;
  pumpQueued = true;
  // `node:timers`' own function, not the global one, so a test's fake timers do not stop bulk work.
  schedule(pump);
}

/** Waits for a turn of the shared budget: the next turn of the loop with no other bulk loop ahead in the queue. */
export function nextBulkTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    queuePump();
  });
}

/** True once this turn's shared budget is spent: a hot loop's cheap check before `await nextBulkTurn()`. */
export function bulkTurnSpent(): boolean {
  return performance.now() - turnStarted >= BULK_TURN_MS;
}

/**
 * To await between the steps of a long loop of bulk work on the event loop: resolves at once while this turn's
 * shared budget lasts, and otherwise waits for a turn (`nextBulkTurn`), so sockets are polled and waiting requests
 * run first. A loop that starts outside a turn (after a store's answer, say) waits for one at its first step.
 */
export function bulkSlice(): Promise<void> {
  return bulkTurnSpent() ? nextBulkTurn() : Promise.resolve();
}
