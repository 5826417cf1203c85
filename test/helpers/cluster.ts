import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { REPO_ROOT, spawnServer, waitForLog, type RunningServer } from './childProcess';

/** A platform process of the cluster: its role, port and the child process. */
export interface ClusterProcess {
  name: string;
  role: string;
  server: RunningServer;
  port: number;
  url: string;
}

/** An embedded engine run as its own process (`npm run embedded:mongo` / `embedded:qdrant`). */
interface EngineProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** The platform split the way production runs it: engines and Redis by URL, processes by role. */
export interface Cluster {
  dir: string;
  env: Record<string, string>;
  mongoUri: string;
  processes: Map<string, ClusterProcess>;
  /**
   * Starts one platform process with `ROLES=role` (its own DATA_DIR, for backups) and `env` over the shared
   * settings, and waits until it listens.
   */
  start(name: string, role: string, env?: Record<string, string>): Promise<ClusterProcess>;
  /** Process ids of the engines and of every running platform process (for CPU accounting). */
  pids(): number[];
  /** Kills a process with SIGKILL (no graceful shutdown) and waits for it to exit. */
  kill(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** Runs an engine's CLI with tsx on a free port; resolves once it prints its URL. */
async function startEngine(cli: string, dir: string): Promise<EngineProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, cli), '--port', '0', '--dir', dir],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((candidate) => /^(mongodb|http):\/\//.test(candidate));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`${cli} exited (${code}) before printing its URL`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts the embedded MongoDB and Qdrant engines as their own processes and clears Redis database `redisDb` (the
 * cluster's own); platform processes are started with `start`. Everything is removed by `stop`.
 */
/** A TCP port nothing listens on now (the system picks it; it is released before the caller binds it). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startCluster(redisDb: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-cluster-'));
  const redisUrl = `redis://127.0.0.1:6379/${redisDb}`;
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  const [mongo, qdrant] = await Promise.all([
    startEngine('embedded/mongo/cli.ts', path.join(dir, 'mongo')),
    startEngine('embedded/qdrant/cli.ts', path.join(dir, 'qdrant')),
  ]);
  const shared = {
    REDIS_URL: redisUrl,
    MONGODB_URI: mongo.url,
    MONGODB_DB: 'cluster',
    QDRANT_URL: qdrant.url,
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_SECOND: '100000',
    ...env,
  };
  const processes = new Map<string, ClusterProcess>();
  const stopProcess = async (name: string, signal: NodeJS.Signals) => {
    const entry = processes.get(name);
    processes.delete(name);
    if (!entry || entry.server.child.exitCode !== null || entry.server.child.signalCode !== null) return;
    entry.server.child.kill(signal);
    // A graceful stop gets SHUTDOWN_TIMEOUT_MS (10 s) and some slack; a process still running then is killed.
    const deadline = setTimeout(() => entry.server.child.kill('SIGKILL'), 20_000);
    await entry.server.exit;
    clearTimeout(deadline);
  };
  return {
    dir,
    env: shared,
    mongoUri: mongo.url,
    processes,
    async start(name, role, env = {}) {
      // A game process listens on a port known before it starts, and advertises it as its public address: seat
      // reservations for its rooms then send SDK clients straight to it (GAME_PUBLIC_ADDRESS).
      const gamePort = role.split(',').includes('game') ? await freePort() : undefined;
      const server = spawnServer({
        ...shared,
        ROLES: role,
        DATA_DIR: path.join(dir, name),
        ...(gamePort ? { PORT: String(gamePort), GAME_PUBLIC_ADDRESS: `127.0.0.1:${gamePort}` } : {}),
        ...env,
      });
      const listening = await waitForLog(server, (line) => line.msg === 'listening', 120_000);
      const port = listening.port as number;
      const entry = { name, role, server, port, url: `http://127.0.0.1:${port}` };
      processes.set(name, entry);
      return entry;
    },
    pids: () => [
      mongo.pid,
      qdrant.pid,
      ...[...processes.values()].map((entry) => entry.server.child.pid ?? 0),
    ],
    kill: (name) => stopProcess(name, 'SIGKILL'),
    async stop() {
      await Promise.all([...processes.keys()].map((name) => stopProcess(name, 'SIGTERM')));
      await Promise.all([mongo.stop(), qdrant.stop()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
