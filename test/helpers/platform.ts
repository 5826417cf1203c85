import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { Platform, type PlatformOptions, type ProductParts } from '../../platform/platform';
import { secretsOf } from '../../platform/redaction';
import type { Clock } from '../../platform/clock';
import { embeddedEngines } from '../../embedded';
import { createHealthService } from '../../services/health';
import { LogCapture } from './logCapture';
import { registerPublishedDocument, unregisterPublishedDocument } from './responseContract';

/** Environment every test platform starts from: random port, loopback, quiet, real local Redis. */
export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  // One Colyseus game server per test process at most (its matchmaker is a singleton): tests that need the game
  // role ask for it.
  ROLES: 'api,worker',
  SHUTDOWN_TIMEOUT_MS: '5000',
  // Tests drive many requests from one address; the gateway limit has its own test.
  GATEWAY_RATE_LIMIT_PER_SECOND: '100000',
  // An empty brain stays empty unless a test asks for the first-start seed.
  BRAIN_SEED_ON_START: '0',
  // Memory recall on the lexical path: the neural encoder costs a worker thread and a model load (about 0.5 s) per
  // platform, paid only by the tests about recall by meaning, which ask for it.
  BRAIN_MEMORY_EMBEDDER: 'chain',
};

export interface TestPlatform {
  platform: Platform;
  config: Config;
  logs: LogCapture;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  stop(): Promise<void>;
}

/**
 * Boots a platform in-process on a random port with `env` over TEST_ENV, its data (embedded MongoDB) in a fresh
 * temporary DATA_DIR removed on stop; logs are captured, not printed. Parts without probes get the health service,
 * as the product's composition mounts it.
 */
export async function startTestPlatform(
  env: Record<string, string> = {},
  parts: ProductParts | PlatformOptions['parts'] = {},
  clock?: Clock,
): Promise<TestPlatform> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-test-'));
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...env });
  const logs = new LogCapture();
  const logger = createLogger({ level: config.LOG_LEVEL, destination: logs, secrets: secretsOf(config) });
  const platform = await Platform.start({
    config,
    logger,
    clock,
    engines: embeddedEngines,
    parts: withHealth(typeof parts === 'function' ? parts : () => parts),
  });
  const url = `http://127.0.0.1:${platform.port}`;
  // Every answer of this platform is checked against the document it publishes (test/setup/responseContract.ts).
  registerPublishedDocument(url, await (await fetch(`${url}/openapi.json`)).text());
  // That request counted against the gateway's one-second budget: a test of a small budget starts with it whole.
  if (config.GATEWAY_RATE_LIMIT_PER_SECOND < 1000) await new Promise((resolve) => setTimeout(resolve, 1100));
  return {
    platform,
    config,
    logs,
    url,
    stop: async () => {
      unregisterPublishedDocument(url);
      await platform.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Adds the health probes to parts that bring none (productParts brings its own). */
function withHealth(parts: NonNullable<PlatformOptions['parts']>): NonNullable<PlatformOptions['parts']> {
  return async (context) => {
    const built = await parts(context);
    if (built.probes?.length) return built;
    const health = createHealthService(context);
    return { ...built, ...health, jobs: [...(built.jobs ?? []), ...(health.jobs ?? [])] };
  };
}
