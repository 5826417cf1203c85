/**
 * The platform process of bench/mcp.ts: the whole product (productParts.ts) on the embedded stores under a fresh
 * DATA_DIR, API and worker roles, Redis when BENCH_REDIS_URL is given, quiet logs, limits raised so one client can
 * drive every request. Prints its URL on the first stdout line. On a `memory` line on stdin it collects garbage and
 * prints `process.memoryUsage()` as JSON; SIGTERM stops it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { Platform } from '../../platform/platform';
import { productParts } from '../../productParts';
import { embeddedEngines } from '../../embedded';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-mcp-bench-'));
  const sessions = process.env.BENCH_SESSIONS ?? '1000';
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    ROLES: 'api,worker',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
    BRAIN_SERVICE_TOKEN: 'bench-service-token-0123456789',
    BRAIN_CACHE_KEY_PREFIX: `bench:mcp:${process.pid}:`,
    MCP_CALLS_PER_MINUTE: '100000000',
    MCP_TOOL_CALLS_PER_MINUTE: '100000000',
    MCP_QUOTA_UNITS_PER_DAY: '100000000',
    MCP_QUOTA_TOOL_CALLS_PER_DAY: '100000000',
    MCP_REDIS_KEY_PREFIX: `bench:mcp:${process.pid}:`,
    MCP_MAX_SESSIONS: String(Number(sessions) + 10),
    MCP_MAX_SESSIONS_PER_CALLER: String(Number(sessions) + 10),
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination: process.stderr });
  const platform = await Platform.start({ config, logger, parts: productParts, engines: embeddedEngines });
  process.stdout.write(`http://127.0.0.1:${platform.port}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'memory') return;
    gc();
    process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
  });
  process.on('SIGTERM', () => {
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
