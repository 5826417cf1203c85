/**
 * Social brain speed (issue 20). The product's platform (api role, embedded stores) runs in this process; a forked
 * load process drives it over HTTP with the service token:
 * 1. Baseline: sync batches of `player_seen` events only (the route, validation, the batch record, the cursor and
 *    the identity upserts, no interactions).
 * 2. Mixed sync: batches of 500 block-game events over `players` players (40% chat, 25% seen, 10% join/leave, 15%
 *    targeted interactions, 5% trades, 5% kills), `concurrency` batches in flight. Prints events/s and the ratio to
 *    the baseline, p50/p95 per batch, and the platform's CPU per 1,000 events. Target: >= 5,000 events/s per process.
 * 3. Profiles: the players are raised to `identities` (seen events), then GET /social/brain/profile of random players
 *    with a viewer, `concurrency` in flight: p50/p95, with GET /healthz's p95 in the same run as the floor.
 * 4. People searches (POST /social/brain/search, a tenth as many as profiles) over the chat's words: p50/p95.
 * The load average is printed before and after: the machine is shared. Besides the whole process's CPU (every
 * thread: the event loop, GC helpers, worker threads), the mixed phase reports the load process's CPU (the share
 * of the machine the load takes), the CPU of each kind of thread (the event loop, what bounds one process's rate
 * when another core is free; the embedded engines' threads; the rest, mostly V8's garbage-collection helpers), and
 * the CPU of the background work the phase left (the platform is given until it is idle before the next phase).
 * BENCH_PROFILE=file.cpuprofile writes a CPU profile of the platform's main thread over the mixed phase only;
 * BENCH_PROFILE=file.heapprofile a sampling profile of what it allocated then (collected objects included: what the
 * garbage collector has to clear).
 * Run: npx tsx bench/socialSync.ts [batches=200] [players=20000] [identities=100000] [profiles=2000] [concurrency=4]
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../platform/seededRandom';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';
import { sendJson } from './support/postJson';
import { percentile } from './support/stats';
import { threadCpuMs, threadCpuPer1000 } from './support/threadCpu';

/** The load process is this script run as `--load <port> ...the bench's arguments`. */
const IS_LOAD = process.argv[2] === '--load';
const args = process.argv.slice(IS_LOAD ? 4 : 2);
const BATCHES = Number(args[0] ?? 200);
const PLAYERS = Number(args[1] ?? 20_000);
const IDENTITIES = Number(args[2] ?? 100_000);
const PROFILES = Number(args[3] ?? 2_000);
const CONCURRENCY = Number(args[4] ?? 4);
// [name, value, smallest allowed]: a mistyped argument stops the bench instead of running a phase of NaN requests.
const SIZES: [string, number, number][] = [
  ['batches', BATCHES, 1],
  ['players', PLAYERS, 1],
  ['identities', IDENTITIES, 0],
  ['profiles', PROFILES, 1],
  ['concurrency', CONCURRENCY, 1],
];
for (const [name, value, least] of SIZES) {
  if (!Number.isInteger(value) || value < least) {
    console.error(`${name} must be a whole number of at least ${least} (usage in this file's header)`);
    process.exit(2);
  }
}
const EVENTS_PER_BATCH = 500;
const TOKEN = 'bench-social-service-token-0123456789';
const AT = '2026-11-26T08:00:00Z';
const WORDS = (
  'redstone diamond iron castle farm wheat villager trade sword armor nether portal mine tunnel creeper zombie ' +
  'skeleton enchant potion library bridge tower harbour boat fishing wool sheep cow horse saddle lantern torch'
).split(' ');

/** People searches over the chat's words: by a word, through synonyms ("farming"), and through narrower kinds. */
const SEARCHES = ['weapons', 'jewels', 'farming', 'redstone tunnel', 'animals', 'who has armor?'];

type Timed = { seconds: number; p50: number; p95: number };
type LoadMessage =
  | ({ kind: 'baseline'; events: number } & Timed)
  | ({ kind: 'sync'; events: number; failed: number; loadCpuMs: number } & Timed)
  | ({ kind: 'profiles'; failed: number; healthP95: number } & Timed)
  | ({ kind: 'searches'; count: number; failed: number } & Timed)
  | { kind: 'seeded' }
  | { kind: 'health' };

/** Deterministic pseudo-random numbers (the same batches every run). */
const random = seededRandom(20);
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
const player = (count = PLAYERS) => `p${Math.floor(random() * count)}`;

/** One event of the mixed workload. */
function mixedEvent(): object {
  const roll = random();
  if (roll < 0.4)
    return {
      type: 'chat',
      user_id: player(),
      message: Array.from({ length: 8 }, () => pick(WORDS)).join(' '),
      at: AT,
    };
  if (roll < 0.65) return { type: 'player_seen', user_id: player(), name: 'Player', at: AT };
  if (roll < 0.75) return { type: random() < 0.5 ? 'join' : 'leave', user_id: player(), at: AT };
  if (roll < 0.9) {
    const kind = pick(['help', 'gift', 'praise', 'insult', 'spam', 'play_together']);
    return { type: 'interaction', user_id: player(), target_user_id: player(), kind, at: AT };
  }
  if (roll < 0.95)
    return { type: 'trade', user_id: player(), target_user_id: player(), items: 'bread for wool', at: AT };
  return { type: 'kill', user_id: player(), target_user_id: player(), at: AT };
}

/** Sends `count` requests made by `send(i)` with CONCURRENCY in flight; answers the timing and failures. */
async function drive(count: number, send: (i: number) => Promise<number>) {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        if ((await send(i)) !== 200) failed++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    seconds: (performance.now() - started) / 1000,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    failed,
  };
}

/** The load process: builds the batches, then drives the three phases when told. */
async function load(port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  const post = (route: string, body: unknown) =>
    sendJson(agent, port, 'POST', route, body, TOKEN).then((r) => r.status);
  const batch = (bot: string, seq: number, events: object[]) => ({
    bot_instance_id: bot,
    seq,
    sent_at: AT,
    events,
  });
  const seenBatches = Array.from({ length: Math.ceil(BATCHES / 4) }, (_, b) =>
    batch(
      'bench-seen',
      b + 1,
      Array.from({ length: EVENTS_PER_BATCH }, () => ({ type: 'player_seen', user_id: player(), at: AT })),
    ),
  );
  const mixedBatches = Array.from({ length: BATCHES }, (_, b) =>
    batch('bench-mixed', b + 1, Array.from({ length: EVENTS_PER_BATCH }, mixedEvent)),
  );
  const baseline = await drive(seenBatches.length, (i) =>
    post('/social/brain/minecraft/sync', seenBatches[i]),
  );
  process.send?.({ kind: 'baseline', events: seenBatches.length * EVENTS_PER_BATCH, ...baseline });
  const loadCpu = process.cpuUsage();
  const mixed = await drive(mixedBatches.length, (i) =>
    post('/social/brain/minecraft/sync', mixedBatches[i]),
  );
  const { user, system } = process.cpuUsage(loadCpu);
  process.send?.({
    kind: 'sync',
    events: mixedBatches.length * EVENTS_PER_BATCH,
    loadCpuMs: (user + system) / 1000,
    ...mixed,
  });
  // The platform first finishes the background work the mixed phase left (see `settle`).
  await new Promise((resolve) => process.once('message', resolve));
  const seedBatches = Math.ceil(IDENTITIES / EVENTS_PER_BATCH);
  await drive(seedBatches, (i) =>
    post(
      '/social/brain/minecraft/sync',
      batch(
        'bench-seed',
        i + 1,
        Array.from({ length: EVENTS_PER_BATCH }, (_, j) => ({
          type: 'player_seen',
          user_id: `p${i * EVENTS_PER_BATCH + j}`,
          at: AT,
        })),
      ),
    ),
  );
  process.send?.({ kind: 'seeded' });
  const health = await drive(PROFILES, () => sendJson(agent, port, 'GET', '/healthz').then((r) => r.status));
  process.send?.({ kind: 'health' });

  const profiles = await drive(PROFILES, () =>
    sendJson(
      agent,
      port,
      'GET',
      `/social/brain/profile/minecraft/${player()}?viewer_platform=minecraft&viewer_user_id=${player()}`,
      undefined,
      TOKEN,
    ).then((r) => r.status),
  );
  process.send?.({ kind: 'profiles', ...profiles, healthP95: health.p95 });
  const searches = Math.max(1, Math.round(PROFILES / 10));
  const found = await drive(searches, (i) =>
    sendJson(
      agent,
      port,
      'POST',
      '/social/brain/search',
      { query: SEARCHES[i % SEARCHES.length] },
      TOKEN,
    ).then((r) => r.status),
  );
  process.send?.({ kind: 'searches', count: searches, ...found });
}

/** Starts a CPU profile of this process's main thread when BENCH_PROFILE names a file; answers its stop. */
async function startProfile(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  const heap = file.endsWith('.heapprofile');
  if (heap)
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 32768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  else {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  return async () => {
    const { profile } = heap
      ? await session.post('HeapProfiler.stopSampling')
      : await session.post('Profiler.stop');
    await fs.writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Waits until this process is idle (under 10% of a core over a 500 ms window, at most 5 minutes): its CPU till then. */
async function settle(): Promise<{ cpuMs: number; ms: number }> {
  const started = performance.now();
  let total = 0;
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    total += ms;
    if (ms < 50 || performance.now() - started > 300_000)
      return { cpuMs: total, ms: performance.now() - started };
  }
}

async function main(): Promise<void> {
  const loadavg = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(`load average before: ${loadavg()} (${os.cpus().length} cores, shared)`);
  const bench = await startBenchPlatform('social', { BRAIN_SERVICE_TOKEN: TOKEN, ROLES: 'api' });
  try {
    // A fresh platform ingests the brain's seed documents and builds their graph and RAPTOR trees in the
    // background; measured phases start once that is done, or they would count it as the workload's cost.
    const started = await settle();
    console.log(
      `platform idle after start-up work: ${(started.cpuMs / 1000).toFixed(1)} s of CPU over ${(started.ms / 1000).toFixed(1)} s`,
    );
    const child = forkLoadChild<LoadMessage>(__filename, [
      '--load',
      String(bench.platform.port),
      ...process.argv.slice(2),
    ]);
    let cpu = process.cpuUsage();
    const cpuMs = () => {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
    const baseline = await child.message('baseline');
    const baselineRate = baseline.events / baseline.seconds;
    console.log(
      `baseline (player_seen only): ${baseline.events} events in ${baseline.seconds.toFixed(2)} s = ${Math.round(baselineRate)} events/s; ` +
        `batch p50 ${baseline.p50.toFixed(1)} ms, p95 ${baseline.p95.toFixed(1)} ms; platform CPU ${(cpuMs() / (baseline.events / 1000)).toFixed(1)} ms per 1,000 events`,
    );
    const stopProfile = await startProfile();
    const threadsBefore = threadCpuMs();
    const sync = await child.message('sync');
    const threads = threadCpuPer1000(threadsBefore, threadCpuMs(), sync.events);
    await stopProfile();
    const rate = sync.events / sync.seconds;
    const syncCpu = cpuMs();
    const settled = await settle();
    child.child.send('continue');
    console.log(
      `mixed sync: ${sync.events} events (${BATCHES} batches of ${EVENTS_PER_BATCH}, ${PLAYERS} players, ${CONCURRENCY} in flight) in ` +
        `${sync.seconds.toFixed(2)} s = ${Math.round(rate)} events/s (${(rate / baselineRate).toFixed(2)} × baseline; target 5,000); ` +
        `batch p50 ${sync.p50.toFixed(1)} ms, p95 ${sync.p95.toFixed(1)} ms; platform CPU ${(syncCpu / (sync.events / 1000)).toFixed(1)} ms per 1,000 events (by thread: ${threads || 'n/a'}); load process CPU ${(sync.loadCpuMs / (sync.events / 1000)).toFixed(1)} ms per 1,000 events; failed batches ${sync.failed}`,
    );
    console.log(
      `background work left by the mixed phase (e.g. HNSW indexing): ${(settled.cpuMs / 1000).toFixed(1)} s of CPU over ${(settled.ms / 1000).toFixed(1)} s until idle; ` +
        `mixed sync with it: ${((syncCpu + settled.cpuMs) / (sync.events / 1000)).toFixed(1)} ms of platform CPU per 1,000 events`,
    );
    await child.message('seeded');
    const stats = (
      await sendJson(new http.Agent(), bench.platform.port, 'GET', '/social/brain/stats', undefined, TOKEN)
    ).body;
    console.log(`graph: ${stats}`);
    await child.message('health');
    cpuMs();
    const profiles = await child.message('profiles');
    const profileCpu = cpuMs() / PROFILES;
    console.log(
      `profiles: ${PROFILES} reads in ${profiles.seconds.toFixed(2)} s = ${Math.round(PROFILES / profiles.seconds)}/s; p50 ${profiles.p50.toFixed(1)} ms, ` +
        `p95 ${profiles.p95.toFixed(1)} ms (GET /healthz p95 ${profiles.healthP95.toFixed(1)} ms in the same run); ` +
        `platform CPU ${profileCpu.toFixed(2)} ms per read; failed ${profiles.failed}`,
    );
    const searches = await child.message('searches');
    console.log(
      `people searches ("${SEARCHES.join('", "')}"): ${searches.count} in ${searches.seconds.toFixed(2)} s; p50 ${searches.p50.toFixed(1)} ms, ` +
        `p95 ${searches.p95.toFixed(1)} ms; platform CPU ${(cpuMs() / searches.count).toFixed(1)} ms per search; failed ${searches.failed}`,
    );
    child.child.kill();
  } finally {
    await bench.stop();
    console.log(`load average after: ${loadavg()}`);
  }
}

if (IS_LOAD) {
  load(Number(process.argv[3])).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
