/**
 * The platform process of bench/brainSearchHttp.ts: the identity and brain areas on the embedded MongoDB and
 * Qdrant engines under a fresh DATA_DIR, Redis when BENCH_REDIS_URL is given, API role only, quiet logs and
 * no gateway limit (one client drives every request). The engines run on their own threads, the platform default,
 * unless BENCH_ENGINE_THREADS=0 (then on the event loop, as every bench run before stop 48 had them). Prints its URL on the first stdout line; SIGTERM stops it.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { embeddedEnginesFor } from '../../embedded';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { Platform, type PlatformContext } from '../../platform/platform';
import { createAuthService } from '../../services/auth';
import { createBrainArea } from '../../services/brain';

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-brain-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    ROLES: 'api',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
    BRAIN_SERVICE_TOKEN: 'bench-service-token-0123456789',
    BRAIN_INGEST_MAX_DOCUMENTS: '500',
    // No first-start seed of the repository's docs: the benches measure their own corpus alone.
    BRAIN_SEED_ON_START: '0',
    BRAIN_CACHE_KEY_PREFIX: `bench:brain:${process.pid}:`,
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination: process.stderr });
  const parts = async (context: PlatformContext) => {
    const auth = createAuthService(context);
    const brain = await createBrainArea(context, auth);
    return {
      services: [auth.register, ...(brain.services ?? [])],
      // The brain's background work (backfill, graph, RAPTOR) stops before the stores close, as in the product.
      close: async () => {
        await brain.close?.();
        await auth.close();
      },
    };
  };
  // The embedded engines on their own threads, as `npm start` runs them (EMBEDDED_ENGINE_THREADS=1, the default);
  // BENCH_ENGINE_THREADS=0 puts them on the event loop, as every bench run before stop 48 had them.
  const engines = embeddedEnginesFor(process.env.BENCH_ENGINE_THREADS !== '0');
  const platform = await Platform.start({ config, logger, parts, engines });
  process.stdout.write(`http://127.0.0.1:${platform.port}\n`);
  // How long the event loop was held at worst (ingest, graph upkeep, searches), reported on stop.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const pauses = watchGcPauses();
  process.on('SIGTERM', () => {
    const ms = (ns: number) => (ns / 1e6).toFixed(0);
    process.stderr.write(
      `server event loop delay over the run: p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms\n` +
        `server GC pauses over the run (main thread, ≥ ${LONG_GC_MS} ms): ${pauses()}\n` +
        `server main-thread heap at stop: ${heapAtStop()}\n`,
    );
    platform
      .stop()
      .finally(() => fs.rmSync(dataDir, { recursive: true, force: true }))
      .finally(() => process.exit(0));
  });
}

/**
 * The main thread's JavaScript heap in use and its typed arrays' memory outside it (MiB): what a major collection
 * marks, and what it does not.
 */
function heapAtStop(): string {
  const { used_heap_size: used, external_memory: external } = getHeapStatistics();
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  return `${mib(used)} MiB in use, ${mib(external)} MiB outside it (array buffers and other external memory)`;
}

/** GC pauses at least this long are listed on stop (ms). */
const LONG_GC_MS = 30;

/**
 * Notes the main thread's GC pauses (PerformanceObserver 'gc'); the returned function describes them: count, sum and
 * longest of all, then each one of at least LONG_GC_MS with its kind and when (s after start).
 */
function watchGcPauses(): () => string {
  const started = performance.now();
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  let count = 0;
  let sum = 0;
  let longest = 0;
  const long: string[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      count++;
      sum += entry.duration;
      longest = Math.max(longest, entry.duration);
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? -1;
      const at = (entry.startTime - started) / 1000;
      if (entry.duration >= LONG_GC_MS)
        long.push(`${kinds[kind] ?? kind} ${entry.duration.toFixed(0)} ms at ${at.toFixed(1)} s`);
    }
  }).observe({ entryTypes: ['gc'] });
  return () => {
    const all = `${count} pauses, ${(sum / 1000).toFixed(1)} s in all, longest ${longest.toFixed(0)} ms`;
    return `${all}; ${long.join(', ') || 'none long'}`;
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
