/**
 * For benches that load one platform process from a forked child, so the platform's CPU is its process's own:
 * the platform runs in the bench's process, the load in a child running the same script.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { embeddedEnginesFor } from '../../embedded';
import { loadConfig, type Config } from '../../platform/config';
import { createLogger, type Logger } from '../../platform/logger';
import { Platform } from '../../platform/platform';
import { productParts } from '../../productParts';

export interface BenchPlatform {
  platform: Platform;
  config: Config;
  /** Stops the platform and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the product's platform in this process. Its configuration is this process's environment, then a free
 * port on 127.0.0.1, a fresh temporary DATA_DIR (`forge-bench-<name>-…`), wallet sign-in on, LOG_LEVEL warn and
 * the gateway rate limit out of the way, then `env` over all of those. `logger` defaults to warn on stdout.
 */
export async function startBenchPlatform(
  name: string,
  env: NodeJS.ProcessEnv,
  logger: Logger = createLogger({ level: 'warn' }),
): Promise<BenchPlatform> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `forge-bench-${name}-`));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIWE_ENABLED: '1',
    LOG_LEVEL: 'warn',
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
    ...env,
  });
  const platform = await Platform.start({
    config,
    logger,
    parts: productParts,
    engines: embeddedEnginesFor(config.EMBEDDED_ENGINE_THREADS),
  });
  return {
    platform,
    config,
    stop: async () => {
      await platform.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoadChild<M extends { kind: string }> {
  child: ChildProcess;
  /**
   * The child's next message of `kind`, including one that arrived before this call (messages are kept until asked
   * for, so a quick phase's report is not lost while the parent awaits something else); rejects if the child exits
   * before sending it.
   */
  message<K extends M['kind']>(kind: K): Promise<Extract<M, { kind: K }>>;
}

/**
 * Forks `script` (the bench's own file) with `args`, under this process's execArgv (tsx). The child reports with
 * `process.send` messages of the union `M`, each with its `kind`; `label` names it in errors.
 */
export function forkLoadChild<M extends { kind: string }>(
  script: string,
  args: string[],
  label = 'load process',
): LoadChild<M> {
  const child = fork(script, args, { execArgv: process.execArgv });
  const received: M[] = [];
  const waiting: { kind: string; resolve: (m: M) => void; reject: (e: Error) => void }[] = [];
  let exitCode: number | null | undefined;
  child.on('message', (m: M) => {
    const waiter = waiting.findIndex((w) => w.kind === m.kind);
    if (waiter === -1) received.push(m);
    else waiting.splice(waiter, 1)[0].resolve(m);
  });
  // 'exit' can come before the child's last messages are read (a busy parent reads its IPC channel late: the crowd
  // bench's host lost an SDK process's report that way), so waiters are failed only once the channel has closed too.
  child.once('exit', (code) => {
    const fail = () => {
      exitCode = code;
      for (const w of waiting.splice(0)) w.reject(new Error(`${label} exited with ${code}`));
    };
    if (child.connected) child.once('disconnect', () => setImmediate(fail));
    else setImmediate(fail);
  });
  const message = <K extends M['kind']>(kind: K) =>
    new Promise<Extract<M, { kind: K }>>((resolve, reject) => {
      const early = received.findIndex((m) => m.kind === kind);
      if (early !== -1) return resolve(received.splice(early, 1)[0] as Extract<M, { kind: K }>);
      if (exitCode !== undefined) return reject(new Error(`${label} exited with ${exitCode}`));
      waiting.push({ kind, resolve: resolve as (m: M) => void, reject });
    });
  return { child, message };
}
