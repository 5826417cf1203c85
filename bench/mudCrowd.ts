/**
 * A crowd at a human pace: N players (default 2000) spread over the six areas and their rooms of the real platform
 * (10 Hz tick, characters in the embedded MongoDB), each acting about once every two seconds (think time drawn
 * uniformly from 1-3 s, seeded) with a person's mix: 30% look, 20% move (to a neighbouring room of the area and
 * back, saved before the reply), 20% say (heard by the room), 10% attack a creature that spawns nearby, 10% talk to
 * an NPC nearby, 10% the quest log. Three quarters play through `@colyseus/sdk` (`room.request`, timed until the
 * room's reply); every fourth over the telnet port (GMCP on, signed in with a link code), timed from the line
 * until the prompt after its answer (not a prompt after something merely witnessed).
 *
 * The platform runs in this process; the SDK clients and the telnet clients each run in a forked process of
 * their own. Every player signs in as a guest (`POST /auth/guest`) and its character is placed in its home room
 * before it enters. The SDK clients join first, then the telnet clients, so the server's memory per player is
 * measured by client kind. Each player makes `actions` actions; the run stops by itself (every action gives up
 * after 10 s, every player after actions × 3.5 s + 20 s, the whole bench after 30 minutes). Traffic goes to
 * 127.0.0.1 only.
 *
 * Printed: action latency percentiles (all, by client kind, by action), the tick rate per area and the server's
 * tick lag and duration (`world_tick_lag_seconds`, `world_tick_duration_seconds`), the server's CPU per action (by
 * thread), the main thread's CPU per action split into the area ticks' and the rest, and per tick into the views'
 * reconciliation, the patches (encoding and socket writes) and the rest (events, writes, simulation), event-loop
 * delay (server and load processes), and RSS and live heap per SDK and per telnet player.
 *
 * Usage: npx tsx bench/mudCrowd.ts [players=2000] [actions=15] [seed=1]
 */
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { matchMaker } from '@colyseus/core';
import type { AreaRoom } from '../rooms/AreaRoom';
import { loadWorld } from '../rooms/content/loader';
import { newCharacter } from '../rooms/persistence';
import { MongoPlayerStore } from '../services/mud/characterStore';
import {
  AREAS,
  CROWD_KINDS,
  crowdHome,
  describeTicks,
  tickSnapshot,
  type CrowdKind,
} from './support/crowdPlan';
import { runCrowdClients, type CrowdMessage } from './support/crowdClients';
import { freeLoopbackPort } from './support/ports';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';
import { latencySummary, liveHeapBytes } from './support/stats';
import { threadCpuMs, threadCpuPer1000 } from './support/threadCpu';
import { watchTickCpu } from './support/tickCpu';
import { describeLoopStalls, watchLoopStalls } from './support/loopStalls';

const TICK_MS = 100;

async function main(players: number, actions: number, seed: number): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error('mudCrowd: 30 minutes passed; giving up');
    process.exit(2);
  }, 30 * 60_000);
  const telnetPort = await freeLoopbackPort();
  const bench = await startBenchPlatform('crowd', {
    ROLES: 'api,game,worker',
    MUD_TICK_MS: String(TICK_MS),
    TELNET_PORT: String(telnetPort),
    TELNET_MAX_PER_ADDRESS: String(players + 10),
    GUEST_SIGNIN_PER_HOUR: String(players * 2 + 10),
    // No first-start seed of the repository's docs into the brain: its ingest and graph build ran through every
    // run's join and action phases (thousands of graph writes a second) and was counted as the world's CPU.
    BRAIN_SEED_ON_START: '0',
  });
  const { platform } = bench;
  const args = (kind: 'sdk' | 'telnet', shard = 0, shards = 1) => [
    '--clients',
    kind,
    String(platform.port),
    String(telnetPort),
    String(players),
    String(actions),
    String(seed),
    String(shard),
    String(shards),
  ];
  const telnetCount = Math.floor(players / 4);
  // The SDK clients decode every patch they receive: in one process, its event loop's delay (p99 0.2-0.3 s at 1,500
  // clients) was counted in their latencies. BENCH_SDK_PROCESSES spreads them; BENCH_CLIENT_NICE lowers the load
  // processes' priority, as if the players' machines were elsewhere (the server is what is measured).
  const sdkProcesses = Math.max(1, Number(process.env.BENCH_SDK_PROCESSES ?? 1));
  const sdks = Array.from({ length: sdkProcesses }, (_, shard) =>
    forkLoadChild<CrowdMessage>(__filename, args('sdk', shard, sdkProcesses), `SDK clients ${shard + 1}`),
  );
  const telnet =
    telnetCount > 0 ? forkLoadChild<CrowdMessage>(__filename, args('telnet'), 'telnet clients') : undefined;
  const children = [...sdks, ...(telnet ? [telnet] : [])];
  const nice = Number(process.env.BENCH_CLIENT_NICE ?? 0);
  if (nice) for (const child of children) os.setPriority(child.child.pid!, nice);
  // Listened for now: a load process exits on its own soon after its report, perhaps before the figures are printed.
  const exited = children.map((child) => new Promise((resolve) => child.child.once('exit', resolve)));

  // Place every character in its home room before it enters, as if it had walked there.
  const world = await loadWorld();
  const store = new MongoPlayerStore(platform.stores.mongo!);
  for (const child of children) {
    const { userIds } = await child.message('signed');
    await Promise.all(
      userIds.map(([i, userId]) => {
        const record = newCharacter(world, { userId, name: `Crowd-${i}` }, Date.now());
        record.roomRef = crowdHome(world, i).room;
        return store.save(record);
      }),
    );
  }

  const rss0 = process.memoryUsage().rss;
  const heap0 = liveHeapBytes();
  for (const sdk of sdks) sdk.child.send('join');
  const sdkJoins = await Promise.all(sdks.map((sdk) => sdk.message('joined')));
  const sdkJoined = {
    seconds: Math.max(...sdkJoins.map((joined) => joined.seconds)),
    players: sdkJoins.reduce((sum, joined) => sum + joined.players, 0),
    failures: sdkJoins.reduce((sum, joined) => sum + joined.failures, 0),
  };
  const rss1 = process.memoryUsage().rss;
  const heap1 = liveHeapBytes();
  telnet?.child.send('join');
  const telnetJoined = telnet ? await telnet.message('joined') : undefined;
  const rss2 = process.memoryUsage().rss;
  const heap2 = liveHeapBytes();

  const rooms = AREAS.map((area) => matchMaker.getLocalRoomById(`area_${area}`) as AreaRoom | undefined);
  const connected = rooms.map((room) => room?.clients.length ?? 0);
  const idle = await measureIdle(rooms, sdkJoined.players + (telnetJoined?.players ?? 0));
  const ticksBefore = rooms.map((room) => room?.state.tick ?? 0);
  const tickBefore = await tickSnapshot();
  const stopTickCpu = watchTickCpu(rooms);
  const loopBefore = process.threadCpuUsage();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadCpuMs();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const stopStalls = watchLoopStalls();
  const t0 = performance.now();
  const monotonic0 = process.hrtime.bigint();
  for (const child of children) child.child.send('go');
  const done = await Promise.all(children.map((child) => child.message('done')));
  for (const child of children) child.child.send('exit');
  const seconds = (performance.now() - t0) / 1000;
  // Under --cpu-prof: the action phase on the profile's clock (CLOCK_MONOTONIC, µs), to cut the profile to it.
  if (process.execArgv.some((arg) => arg.startsWith('--cpu-prof')))
    console.log(`  action phase, monotonic µs: ${monotonic0 / 1000n}-${process.hrtime.bigint() / 1000n}`);
  const cpu = process.cpuUsage(cpuBefore);
  const loopCpu = process.threadCpuUsage(loopBefore);
  const tickCpu = stopTickCpu();
  const threadsAfter = threadCpuMs();
  loop.disable();
  const stalls = stopStalls();
  const tickAfter = await tickSnapshot();
  const hz = rooms.map((room, i) => ((room?.state.tick ?? 0) - ticksBefore[i]) / seconds);

  const all = done.flatMap((d) => CROWD_KINDS.flatMap((kind) => d.latencies[kind]));
  const byKind = (kind: CrowdKind) => done.flatMap((d) => d.latencies[kind]);
  const sdkDone = done.slice(0, sdks.length);
  const telnetDone = telnet ? done[sdks.length] : undefined;
  const sdkPlayers = sdkJoined.players;
  const telnetPlayers = telnetJoined?.players ?? 0;
  const kb = (bytes: number, n: number) => (bytes / 1024 / Math.max(1, n)).toFixed(0);
  const memory = process.memoryUsage();

  console.log(
    `mud crowd: ${players} players (${sdkPlayers} SDK + ${telnetPlayers} telnet joined) over ${AREAS.length} areas, ${actions} actions each about every 2 s; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `  in the area rooms (SDK): ${AREAS.map((area, i) => `${area} ${connected[i]}`).join(', ')}; join ${sdkJoined.seconds.toFixed(1)} s SDK, ${(telnetJoined?.seconds ?? 0).toFixed(1)} s telnet; join failures ${sdkJoined.failures + (telnetJoined?.failures ?? 0)}; ${sdks.length} SDK load process(es)${nice ? `, load processes at nice ${nice}` : ''}`,
  );
  console.log(
    `  action latency, all: ${latencySummary(all)}, max ${Math.max(0, ...all).toFixed(0)} ms (target p95 < 100 ms)`,
  );
  console.log(
    `    SDK (room.request to reply): ${latencySummary(sdkDone.flatMap((d) => CROWD_KINDS.flatMap((k) => d.latencies[k])))}`,
  );
  if (telnetDone)
    console.log(
      `    telnet (line to its prompt): ${latencySummary(CROWD_KINDS.flatMap((k) => telnetDone.latencies[k]))}`,
    );
  for (const kind of CROWD_KINDS) console.log(`    ${kind}: ${latencySummary(byKind(kind))}`);
  const refused = done.reduce((sum, d) => sum + d.refused, 0);
  const failures = done.reduce((sum, d) => sum + d.failures, 0);
  console.log(
    `  ${all.length} actions in ${seconds.toFixed(1)} s = ${(all.length / seconds).toFixed(0)} actions/s; refused by the game (no such target, dead, …) ${refused}; failures (no answer in 10 s, errors) ${failures}`,
  );
  console.log(
    `  tick: ${hz.map((h, i) => `${AREAS[i]} ${h.toFixed(1)}`).join(', ')} Hz (configured ${1000 / TICK_MS} Hz)`,
  );
  console.log(`    server: ${describeTicks(tickBefore, tickAfter, TICK_MS)}`);
  console.log(
    `  server CPU ${((cpu.user + cpu.system) / 1000 / Math.max(1, all.length)).toFixed(2)} ms per action (ticks, patches, GMCP and saves included; ${(((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(0)}% of a core); per 1,000 actions by thread: ${threadCpuPer1000(threadsBefore, threadsAfter, all.length)}`,
  );
  const loopMs = (loopCpu.user + loopCpu.system) / 1000;
  const perTick = (ms: number) => (ms / Math.max(1, tickCpu.ticks)).toFixed(2);
  console.log(
    `  main thread: ${(loopMs / Math.max(1, all.length)).toFixed(3)} ms per action, of which ticks ${(tickCpu.tickMs / Math.max(1, all.length)).toFixed(3)} and the rest ${((loopMs - tickCpu.tickMs) / Math.max(1, all.length)).toFixed(3)}; ${tickCpu.ticks} area ticks, ${perTick(tickCpu.tickMs)} ms each (views ${perTick(tickCpu.syncMs)}, patches ${perTick(tickCpu.patchMs)}, events, writes and the simulation ${perTick(tickCpu.tickMs - tickCpu.syncMs - tickCpu.patchMs)})`,
  );
  console.log(
    `  load processes: SDK ${(sdkDone.reduce((sum, d) => sum + d.cpuMs, 0) / Math.max(1, seconds * 10)).toFixed(0)}% of a core, telnet ${((telnetDone?.cpuMs ?? 0) / Math.max(1, seconds * 10)).toFixed(0)}%`,
  );
  console.log(
    `  event-loop delay p99: server ${(loop.percentile(99) / 1e6).toFixed(1)} ms, SDK clients ${Math.max(...sdkDone.map((d) => d.loopP99Ms)).toFixed(1)} ms, telnet clients ${(telnetDone?.loopP99Ms ?? 0).toFixed(1)} ms`,
  );
  console.log(`  ${describeLoopStalls(stalls)}`);
  if (process.env.BENCH_STALLS_FILE)
    fs.writeFileSync(
      process.env.BENCH_STALLS_FILE,
      JSON.stringify(stalls.long, (_, v) => (typeof v === 'bigint' ? Number(v) : v)),
    );
  console.log(
    `  server memory per player: SDK ${kb(rss1 - rss0, sdkPlayers)} KB rss, ${kb(heap1 - heap0, sdkPlayers)} KB live heap; telnet ${kb(rss2 - rss1, telnetPlayers)} KB rss, ${kb(heap2 - heap1, telnetPlayers)} KB live heap; rss ${Math.round(memory.rss / 2 ** 20)} MB at the end`,
  );
  if (idle) console.log(`  ${idle}`);
  await Promise.all(exited);
  clearTimeout(watchdog);
  await bench.stop();
  process.exit(0);
}

/**
 * With `BENCH_IDLE_S` set: that many seconds with every player connected and nobody acting, before the actions. The
 * server's CPU then is what the crowd costs by being there (ticks with nothing to send, pings, autosaves, timers):
 * printed per second and per connected player, by thread, with the phase's span on the profile's clock.
 */
async function measureIdle(rooms: (AreaRoom | undefined)[], connected: number): Promise<string | undefined> {
  const seconds = Number(process.env.BENCH_IDLE_S ?? 0);
  if (!(seconds > 0)) return undefined;
  const ticks = watchTickCpu(rooms);
  const loop = process.threadCpuUsage();
  const threads = threadCpuMs();
  const monotonic0 = process.hrtime.bigint();
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - t0) / 1000;
  const loopCpu = process.threadCpuUsage(loop);
  const tickCpu = ticks();
  const loopMs = (loopCpu.user + loopCpu.system) / 1000;
  const perSecond = (ms: number) => (ms / elapsed).toFixed(1);
  return `idle ${elapsed.toFixed(1)} s, ${connected} players connected, nobody acting: main thread ${perSecond(loopMs)} ms per second (${((loopMs / elapsed / Math.max(1, connected)) * 1000).toFixed(1)} µs per player), of which area ticks ${perSecond(tickCpu.tickMs)} (${tickCpu.ticks} ticks; views ${perSecond(tickCpu.syncMs)}, patches ${perSecond(tickCpu.patchMs)}); by thread, ms per second: ${threadCpuPer1000(threads, threadCpuMs(), elapsed * 1000)}; monotonic µs ${monotonic0 / 1000n}-${process.hrtime.bigint() / 1000n}`;
}

const [mode, ...args] = process.argv.slice(2);
const run =
  mode === '--clients'
    ? runCrowdClients({
        kind: args[0] === 'telnet' ? 'telnet' : 'sdk',
        port: Number(args[1]),
        telnetPort: Number(args[2]),
        players: Number(args[3]),
        actions: Number(args[4]),
        seed: Number(args[5]),
        shard: Number(args[6] ?? 0),
        shards: Number(args[7] ?? 1),
      })
    : main(Number(mode ?? 2000), Number(args[0] ?? 15), Number(args[1] ?? 1));
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
