/**
 * Wallet sign-in throughput: `POST /auth/wallet/verify` over HTTP against one platform process (embedded MongoDB in
 * the same process unless MONGODB_URI is set; real Redis when REDIS_URL is set).
 *
 * The load comes from a child process, so the platform process's CPU is its own: the child fetches the nonces and
 * signs the messages, warms the server up with 500 verifies (all untimed), then sends the timed verifies. The timed
 * part is verification (message parsing, ecrecover, nonce consumption, identity lookup, session write) plus HTTP.
 * Printed: wall-clock throughput and latency percentiles, and the platform process's CPU time per verify with the
 * throughput one fully available core gives at that cost (the figure that depends least on the machine's load), the
 * event-loop thread's share (which bounds one process), the GC pauses and the load process's own CPU.
 *
 * Usage: npx tsx bench/authVerify.ts [verifies=2000] [concurrency=32]   Target: >= 1,000 verifies/s per process.
 * BENCH_PROFILE=file.cpuprofile writes a CPU profile of the platform process over the timed part only.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { Platform } from '../platform/platform';
import { productParts } from '../productParts';

interface LoadResult {
  latencies: number[];
  failures: number;
  seconds: number;
  /** CPU the load process spent per verify (ms): it shares the machine with the platform. */
  loadCpuMs: number;
}

type ChildMessage = { kind: 'ready' } | ({ kind: 'done' } & LoadResult);

function post(agent: http.Agent, port: number, route: string, body: unknown) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The load generator (child process): prepares signed proofs, waits for "go", then runs the verifies. */
async function runLoad(port: number, domain: string, total: number, concurrency: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const wallets = Array.from({ length: 100 }, () => Wallet.createRandom());
  const proofs: { address: string; nonce: string; message: string; signature: string }[] = [];
  const warmup = Math.min(500, total);
  for (let i = 0; i < total + warmup; i++) {
    const wallet = wallets[i % wallets.length] as (typeof wallets)[number];
    const { nonce } = JSON.parse((await post(agent, port, '/auth/wallet/nonce', {})).body) as {
      nonce: string;
    };
    const message = new SiweMessage({
      domain,
      address: wallet.address,
      uri: `http://${domain}/login`,
      version: '1',
      chainId: 8453,
      nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    proofs.push({ address: wallet.address, nonce, message, signature: await wallet.signMessage(message) });
  }
  // Warm-up outside the timing, at the same concurrency: JIT compilation and connection pools settle first.
  const warming = proofs.splice(0, warmup);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let proof = warming.pop(); proof; proof = warming.pop()) {
        await post(agent, port, '/auth/wallet/verify', proof);
      }
    }),
  );
  process.send?.({ kind: 'ready' } satisfies ChildMessage);
  await new Promise((resolve) => process.once('message', resolve));

  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < proofs.length) {
        const proof = proofs[next++];
        const t0 = performance.now();
        const res = await post(agent, port, '/auth/wallet/verify', proof);
        latencies.push(performance.now() - t0);
        if (res.status !== 202) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const loadCpuMs = (cpu.user + cpu.system) / 1000 / latencies.length;
  agent.destroy();
  process.send?.({ kind: 'done', latencies, failures, seconds, loadCpuMs } satisfies ChildMessage);
}

/**
 * CPU time of this process's main thread (the event loop, which bounds one process's throughput) in ms, from Linux's
 * per-thread schedstat; undefined elsewhere. Process CPU also counts GC helper and libuv threads.
 */
function eventLoopCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The platform process: starts the platform, drives a load child, measures its own CPU during the timed part. */
async function main(total: number, concurrency: number): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-bench-auth-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ROLES: 'api',
    SIWE_ENABLED: '1',
    LOG_LEVEL: 'warn',
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
  });
  const platform = await Platform.start({
    config,
    logger: createLogger({ level: 'warn' }),
    parts: productParts,
  });
  const child = fork(
    __filename,
    ['--load', String(platform.port), config.SIWE_DOMAIN, String(total), String(concurrency)],
    {
      execArgv: process.execArgv,
    },
  );
  const message = (kind: ChildMessage['kind']) =>
    new Promise<ChildMessage>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
      child.on('message', (m: ChildMessage) => m.kind === kind && resolve(m));
    });

  await message('ready');
  let gcPauseMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauseMs += entry.duration;
  });
  gc.observe({ entryTypes: ['gc'] });
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const loopBefore = eventLoopCpuMs();
  child.send('go');
  const result = (await message('done')) as LoadResult;
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    await fs.writeFile(String(process.env.BENCH_PROFILE), JSON.stringify(profile));
    profiler.disconnect();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const loopAfter = eventLoopCpuMs();
  gc.disconnect();
  const timed = result.latencies.length;
  const cpuMsPerVerify = (cpu.user + cpu.system) / 1000 / timed;
  const latencies = result.latencies.sort((a, b) => a - b);

  console.log(
    `wallet verify over HTTP: ${timed} verifies, concurrency ${concurrency}, MongoDB ${config.MONGODB_URI ? 'external' : 'embedded in-process'}, Redis ${config.REDIS_URL ? 'yes' : 'no'}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`  throughput ${(timed / result.seconds).toFixed(0)} verifies/s (target >= 1000)`);
  console.log(
    `  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  console.log(
    `  platform CPU ${cpuMsPerVerify.toFixed(2)} ms per verify: ${(1000 / cpuMsPerVerify).toFixed(0)} verifies/s on one free core`,
  );
  if (loopBefore !== undefined && loopAfter !== undefined) {
    const loopMs = (loopAfter - loopBefore) / timed;
    console.log(
      `  event-loop thread ${loopMs.toFixed(2)} ms per verify: at most ${(1000 / loopMs).toFixed(0)} verifies/s per process`,
    );
  }
  console.log(
    `  GC pauses ${(gcPauseMs / timed).toFixed(3)} ms per verify (main thread; helpers not counted)`,
  );
  console.log(`  load process CPU ${result.loadCpuMs.toFixed(2)} ms per verify (on the same machine)`);
  console.log(`  failures ${result.failures}`);
  child.kill();
  await platform.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}

const [mode, ...args] = process.argv.slice(2);
const run =
  mode === '--load'
    ? runLoad(Number(args[0]), String(args[1]), Number(args[2]), Number(args[3]))
    : main(Number(mode ?? 2000), Number(args[0] ?? 32));
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
