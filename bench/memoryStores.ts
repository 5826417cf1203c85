/**
 * Helper of the memory benches (not a benchmark): the brain's memory service on fresh embedded MongoDB and Qdrant
 * engines in a temporary directory, in this process, as the platform composes it (no HTTP).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { embeddedEngines } from '../embedded';
import { ManualClock } from '../platform/clock';
import { loadConfig } from '../platform/config';
import { openStores } from '../platform/stores';
import { openBrainCore } from '../services/brain/brainCore';
import { openBrainMemory, type BrainMemory } from '../services/brain/memory/memoryArea';

/** The opened memory service, its clock and a way to close and remove everything. */
export interface BenchMemory extends BrainMemory {
  clock: ManualClock;
  shutdown(): Promise<void>;
}

/**
 * Opens the memory service on embedded engines (no Redis: working memory in process). `env` adds configuration
 * (e.g. the offline embedder) to the bench's defaults.
 */
export async function openBenchMemory(
  start = Date.parse('2026-11-26T00:00:00.000Z'),
  env: Record<string, string> = {},
): Promise<BenchMemory> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-memory-bench-'));
  const config = loadConfig({ ...env, DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  const logger = pino({ level: 'silent' });
  const stores = await openStores(config, logger, embeddedEngines);
  const clock = new ManualClock(start);
  const context = { config, logger, stores, clock, isAccepting: () => true };
  const core = await openBrainCore(context);
  // No routes are registered here, so the guard is never read.
  const memory = await openBrainMemory(context, core.embeddings, { guard: undefined as never });
  return {
    ...memory,
    clock,
    shutdown: async () => {
      await memory.close();
      await core.close();
      await stores.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
