/**
 * Scale-out on one machine: REST players (`POST /mud/action` through the api process) against the platform split the
 * way production runs it — embedded MongoDB and Qdrant engines as their own processes, Redis (database 13, cleared),
 * two `game`, one `api` and two `worker` processes connected by URL — compared with ONE process holding every role
 * against the same engine processes, in the same run, with the same load.
 *
 * Each of `clients` guests signs in, odd ones walk to the forest (so both areas, on both game processes in the
 * split, have players), then every client sends `actions` actions (look, and a say every fifth), in rounds (every
 * client once per round) with at most 64 actions in flight, through one keep-alive agent. Printed per layout: action
 * round-trip p50/p95/p99, actions per second, failures, and CPU per action (user+system time of every process of the layout, engines
 * included, over the action phase, from /proc), plus the machine's load.
 *
 * Usage: npx tsx bench/cluster.ts [clients=2000] [actions=5]
 */
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startCluster, type Cluster } from '../test/helpers/cluster';
import { sendJson } from './support/postJson';
import { cpuSeconds } from './support/procCpu';
import { percentile } from './support/stats';

const SETUP_CONCURRENCY = 64;
const ACTION_CONCURRENCY = 64;

/** Runs `work` over `items` with at most `limit` in flight. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

interface LayoutFigures {
  layout: string;
  processes: number;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
  failures: string;
  cpuMsPerAction: number;
}

async function load(cluster: Cluster, apiPort: number, clients: number, actions: number, layout: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const tokens: string[] = [];
  await inBatches(
    Array.from({ length: clients }, (_, index) => index),
    SETUP_CONCURRENCY,
    async (index) => {
      const res = await sendJson(agent, apiPort, 'POST', '/auth/guest', {});
      if (res.status !== 201) throw new Error(`guest sign-in answered ${res.status}: ${res.body}`);
      const token = (JSON.parse(res.body) as { token: string }).token;
      tokens.push(token);
      const walks = index % 2 === 1 ? ['east', 'east', 'east'] : [];
      for (const direction of walks)
        await sendJson(agent, apiPort, 'POST', '/mud/move', { direction }, token);
    },
  );
  console.log(`${layout}: ${tokens.length} clients signed in`);
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  const cpuBefore = cpuSeconds(cluster.pids());
  const started = performance.now();
  // Rounds of every client acting once, at most ACTION_CONCURRENCY actions in flight: the round trip measures the
  // platform, not requests queued in this process.
  const turns = Array.from({ length: actions }, (_, n) =>
    tokens.map((token, index) => ({ token, index, n })),
  ).flat();
  await inBatches(turns, ACTION_CONCURRENCY, async ({ token, index, n }) => {
    const body = n % 5 === 4 ? { action: 'say', text: `hello ${index}` } : { action: 'look' };
    const sent = performance.now();
    const res = await sendJson(agent, apiPort, 'POST', '/mud/action', body, token);
    latencies.push(performance.now() - sent);
    if (res.status !== 200) failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`${layout}: ${latencies.length} actions in ${seconds.toFixed(1)} s`);
  const cpu = cpuSeconds(cluster.pids()) - cpuBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const figures: LayoutFigures = {
    layout,
    processes: cluster.pids().length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    perSecond: latencies.length / seconds,
    failures: [...failures].map(([status, count]) => `${count}x${status}`).join(' ') || 'none',
    cpuMsPerAction: (cpu * 1000) / latencies.length,
  };
  return figures;
}

async function run(layout: 'split' | 'single', clients: number, actions: number): Promise<LayoutFigures> {
  const cluster = await startCluster(13, { GUEST_SIGNIN_PER_HOUR: '1000000' });
  try {
    const api = await cluster.start('api-1', layout === 'split' ? 'api' : 'api,game,worker');
    console.log(`${layout}: api-1 listening`);
    if (layout === 'split') {
      await Promise.all([
        cluster.start('game-1', 'game'),
        cluster.start('game-2', 'game'),
        cluster.start('worker-1', 'worker'),
        cluster.start('worker-2', 'worker'),
      ]);
    }
    return await load(cluster, api.port, clients, actions, layout);
  } finally {
    await cluster.stop();
    console.log(`${layout}: stopped`);
  }
}

async function main(): Promise<void> {
  const clients = Number(process.argv[2] ?? 2000);
  const actions = Number(process.argv[3] ?? 5);
  console.log(`cluster bench: ${clients} REST clients x ${actions} actions; ${os.cpus().length} cores`);
  const results = [await run('single', clients, actions), await run('split', clients, actions)];
  for (const r of results) {
    console.log(
      `${r.layout.padEnd(6)} ${r.processes} processes: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, ` +
        `p99 ${r.p99.toFixed(1)} ms, ${r.perSecond.toFixed(0)} actions/s, failures: ${r.failures}, ` +
        `${r.cpuMsPerAction.toFixed(2)} ms CPU per action`,
    );
  }
  const [single, split] = results;
  console.log(
    `split / single: p95 x${(split.p95 / single.p95).toFixed(2)}, throughput x${(split.perSecond / single.perSecond).toFixed(2)}, ` +
      `CPU per action x${(split.cpuMsPerAction / single.cpuMsPerAction).toFixed(2)}`,
  );
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
