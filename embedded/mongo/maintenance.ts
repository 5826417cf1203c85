/**
 * Background work of an engine: a frequent tick that fsyncs written files and closes idle cursors, and the TTL
 * monitor, which deletes documents past their index's `expireAfterSeconds` once per interval of the engine's
 * clock (MongoDB runs it every 60 seconds). A pass that is due runs on its timer or before the next command,
 * whichever comes first, so with an injected clock expiry is deterministic. Compaction is not here: each
 * collection checks it after its own writes.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import type { Catalog } from './catalog/catalog';
import type { CursorRegistry } from './cursors';

/** Tuning of the background work; every field has a default. */
export interface MaintenanceOptions {
  /** How often written data is fsynced and idle cursors close. Default 100 ms. */
  syncIntervalMs?: number;
  /** How often (in engine-clock time) the TTL monitor runs. Default 60 000 ms, as MongoDB. */
  ttlMonitorIntervalMs?: number;
}

/** Runs one TTL pass over every collection; returns the number of documents removed. */
export function expireDocuments(catalog: Catalog, clock: Clock): number {
  let removed = 0;
  for (const collection of catalog.allCollections()) {
    for (const index of collection.indexes.values()) {
      const seconds = index.spec.expireAfterSeconds;
      if (seconds === undefined || !index.maintained || index.fields.length !== 1) continue;
      removed += collection.deleteExpired(index, new Date(clock.now() - seconds * 1000));
    }
  }
  return removed;
}

/** The running background work. */
export interface Maintenance {
  /** Runs the TTL pass if a monitor interval of clock time has passed since the last one. */
  ttlIfDue(): void;
  /** Stops the timers. */
  stop(): void;
}

/** Starts the timers. */
export function startMaintenance(
  catalog: Catalog,
  cursors: CursorRegistry,
  clock: Clock,
  logger: Logger,
  options: MaintenanceOptions,
): Maintenance {
  const guarded = (task: string, work: () => void) => () => {
    try {
      work();
    } catch (error) {
      logger.error({ err: error, task }, 'embedded mongo maintenance failed');
    }
  };
  const ttlIntervalMs = options.ttlMonitorIntervalMs ?? 60_000;
  let lastTtlPass = clock.now();
  const ttlIfDue = guarded('ttl', () => {
    const now = clock.now();
    if (now - lastTtlPass < ttlIntervalMs) return;
    lastTtlPass = now;
    const removed = expireDocuments(catalog, clock);
    if (removed > 0) logger.debug({ removed }, 'TTL monitor removed expired documents');
  });
  const tick = setInterval(
    guarded('sync', () => {
      catalog.syncAllInBackground();
      cursors.expire();
    }),
    options.syncIntervalMs ?? 100,
  );
  const ttl = setInterval(ttlIfDue, ttlIntervalMs);
  tick.unref();
  ttl.unref();
  return {
    ttlIfDue,
    stop: () => {
      clearInterval(tick);
      clearInterval(ttl);
    },
  };
}
