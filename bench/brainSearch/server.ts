/**
 * The platform process of bench/brainSearchHttp.ts: the identity and brain areas on the embedded MongoDB and
 * Qdrant engines under a fresh DATA_DIR, Redis when BENCH_REDIS_URL is given, API role only, quiet logs and
 * no gateway limit (one client drives every request). The engines run on their own threads, the platform default,
 * unless BENCH_ENGINE_THREADS=0 (then on the event loop, as every bench run before stop 48 had them). Prints its URL on the first stdout line; SIGTERM stops it.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
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
  process.on('SIGTERM', () => {
    const ms = (ns: number) => (ns / 1e6).toFixed(0);
    process.stderr.write(
      `server event loop delay over the run: p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms\n`,
    );
    platform
      .stop()
      .finally(() => fs.rmSync(dataDir, { recursive: true, force: true }))
      .finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
