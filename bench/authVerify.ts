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
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Wallet } from 'ethers';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';
import { postJson } from './support/postJson';
import { percentile } from './support/stats';
import { walletProof, type WalletProof } from './support/walletProof';

interface LoadResult {
  latencies: number[];
  failures: number;
  seconds: number;
  /** CPU the load process spent per verify (ms): it shares the machine with the platform. */
  loadCpuMs: number;
}

type ChildMessage = { kind: 'ready' } | ({ kind: 'done' } & LoadResult);

/** The load generator (child process): prepares signed proofs, waits for "go", then runs the verifies. */
async function runLoad(port: number, domain: string, total: number, concurrency: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const wallets = Array.from({ length: 100 }, () => Wallet.createRandom());
  const proofs: WalletProof[] = [];
  const warmup = Math.min(500, total);
  for (let i = 0; i < total + warmup; i++) {
    const wallet = wallets[i % wallets.length] as (typeof wallets)[number];
    proofs.push(await walletProof(agent, port, domain, wallet));
  }
  // Warm-up outside the timing, at the same concurrency: JIT compilation and connection pools settle first.
  const warming = proofs.splice(0, warmup);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let proof = warming.pop(); proof; proof = warming.pop()) {
        await postJson(agent, port, '/auth/wallet/verify', proof);
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
        const res = await postJson(agent, port, '/auth/wallet/verify', proof);
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

/** The platform process: starts the platform, drives a load child, measures its own CPU during the timed part. */
async function main(total: number, concurrency: number): Promise<void> {
  const bench = await startBenchPlatform('auth', { ROLES: 'api' });
  const { platform, config } = bench;
  const { child, message } = forkLoadChild<ChildMessage>(__filename, [
    '--load',
    String(platform.port),
    config.SIWE_DOMAIN,
    String(total),
    String(concurrency),
  ]);

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
  const result = await message('done');
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
    `  platform CPU ${cpuMsPerVerify.toFixed(2)} ms per verify (user ${(cpu.user / 1000 / timed).toFixed(2)}, kernel ${(cpu.system / 1000 / timed).toFixed(2)}): ${(1000 / cpuMsPerVerify).toFixed(0)} verifies/s on one free core`,
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
  await bench.stop();
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
