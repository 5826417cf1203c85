/**
 * bench/mudCrowd.ts's crowd against the multi-process form: the six areas hosted by `BENCH_GAME_PROCESSES` (default
 * 2) `game` processes sharing Redis presence (database 14, cleared), with the embedded MongoDB and Qdrant engines as
 * processes of their own, connected by URL (test/helpers/cluster.ts, as production splits it). The first process
 * also has the `api` and `worker` roles (guest sign-in, telnet link codes). The areas are pinned to the processes
 * (`GAME_HOSTS_ROOMS`), largest crowd first onto the process with the fewest players so far; a seat reservation
 * carries the hosting process's `GAME_PUBLIC_ADDRESS`, so every SDK client plays on the process hosting its area. Every game process serves a telnet port and the telnet
 * players are spread over them as a TCP balancer would: a player whose area is on another process acts through the
 * action gateway over presence.
 *
 * The same players, plan and actions as mudCrowd.ts (its load processes are forked: `mudCrowd.ts --clients`), and
 * the same BENCH_SDK_PROCESSES and BENCH_CLIENT_NICE. Printed: action latency (all, by client kind, by action), the
 * tick rate per area with the process hosting it and the ticks' lag and duration (each process's `/metrics`), CPU
 * per action of every server process (engines included) and of each game process, the load processes' CPU and
 * event-loop delay, and each game process's RSS.
 *
 * Usage: npx tsx bench/mudCrowdCluster.ts [players=2000] [actions=15] [seed=1]
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadWorld } from '../rooms/content/loader';
import type { World } from '../rooms/content/world';
import { newCharacter } from '../rooms/persistence';
import { MongoPlayerStore } from '../services/mud/characterStore';
import { createLogger } from '../platform/logger';
import { connectMongo } from '../platform/stores/mongo';
import { startCluster, type Cluster, type ClusterProcess } from '../test/helpers/cluster';
import { AREAS, CROWD_KINDS, crowdHome, describeTicks, type CrowdKind } from './support/crowdPlan';
import type { CrowdMessage } from './support/crowdClients';
import { tickSnapshotOf, ticksByArea } from './support/metricsText';
import { freeLoopbackPort } from './support/ports';
import { forkLoadChild } from './support/platformProcess';
import { cpuSeconds, rssBytes } from './support/procCpu';
import { latencySummary } from './support/stats';

const TICK_MS = 100;
const REDIS_DB = 14;

/** The areas each game process hosts: the most crowded first, each onto the process with the fewest players so far. */
function areaPlan(world: World, players: number, processes: number): string[][] {
  const crowd = new Map<string, number>();
  for (let i = 0; i < players; i++) {
    const { area } = crowdHome(world, i);
    crowd.set(area, (crowd.get(area) ?? 0) + 1);
  }
  const plan = Array.from({ length: processes }, () => ({ areas: [] as string[], players: 0 }));
  for (const [area, count] of [...crowd].sort((a, b) => b[1] - a[1])) {
    const lightest = plan.reduce((min, entry) => (entry.players < min.players ? entry : min));
    lightest.areas.push(area);
    lightest.players += count;
  }
  return plan.map((entry) => entry.areas);
}

const metricsOf = (games: ClusterProcess[]) =>
  Promise.all(games.map(async (game) => (await fetch(`${game.url}/metrics`)).text()));

const pidOf = (game: ClusterProcess) => game.server.child.pid ?? 0;

async function main(players: number, actions: number, seed: number): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error('mudCrowdCluster: 30 minutes passed; giving up');
    process.exit(2);
  }, 30 * 60_000);
  const gameCount = Math.max(1, Number(process.env.BENCH_GAME_PROCESSES ?? 2));
  const telnetPorts = await Promise.all(Array.from({ length: gameCount }, freeLoopbackPort));
  const cluster = await startCluster(REDIS_DB, {
    MUD_TICK_MS: String(TICK_MS),
    TELNET_MAX_PER_ADDRESS: String(players + 10),
    GUEST_SIGNIN_PER_HOUR: String(players * 2 + 10),
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
  });
  try {
    await crowd(cluster, telnetPorts, players, actions, seed);
  } finally {
    await cluster.stop();
  }
  clearTimeout(watchdog);
  process.exit(0);
}

async function crowd(
  cluster: Cluster,
  telnetPorts: number[],
  players: number,
  actions: number,
  seed: number,
): Promise<void> {
  const world = await loadWorld();
  const plan = areaPlan(world, players, telnetPorts.length);
  const games: ClusterProcess[] = [];
  for (const [i, telnetPort] of telnetPorts.entries())
    games.push(
      await cluster.start(`game-${i + 1}`, i === 0 ? 'api,game,worker' : 'game', {
        TELNET_PORT: String(telnetPort),
        GAME_HOSTS_ROOMS: plan[i].map((area) => `area_${area}`).join(','),
      }),
    );
  const apiPort = games[0].port;

  const args = (kind: 'sdk' | 'telnet', telnetPort: number, shard: number, shards: number) =>
    ['--clients', kind, apiPort, telnetPort, players, actions, seed, shard, shards].map(String);
  const script = path.join(__dirname, 'mudCrowd.ts');
  const sdkProcesses = Math.max(1, Number(process.env.BENCH_SDK_PROCESSES ?? 1));
  const sdks = Array.from({ length: sdkProcesses }, (_, shard) =>
    forkLoadChild<CrowdMessage>(
      script,
      args('sdk', telnetPorts[0], shard, sdkProcesses),
      `SDK clients ${shard + 1}`,
    ),
  );
  const telnets = players >= 4 ? telnetPorts : [];
  const telnetChildren = telnets.map((port, shard) =>
    forkLoadChild<CrowdMessage>(
      script,
      args('telnet', port, shard, telnets.length),
      `telnet clients ${shard + 1}`,
    ),
  );
  const children = [...sdks, ...telnetChildren];
  const nice = Number(process.env.BENCH_CLIENT_NICE ?? 0);
  if (nice) for (const child of children) os.setPriority(child.child.pid!, nice);
  const exited = children.map((child) => new Promise((resolve) => child.child.once('exit', resolve)));

  // Place every character in its home room before it enters, as if it had walked there.
  const connection = await connectMongo(
    cluster.mongoUri,
    cluster.env.MONGODB_DB,
    createLogger({ level: 'warn' }),
  );
  const store = new MongoPlayerStore(connection);
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
  await connection.close();

  const rss0 = games.map((game) => rssBytes(pidOf(game)));
  const joinAll = async (group: typeof children) => {
    for (const child of group) child.child.send('join');
    const joined = await Promise.all(group.map((child) => child.message('joined')));
    return {
      seconds: Math.max(0, ...joined.map((j) => j.seconds)),
      players: joined.reduce((sum, j) => sum + j.players, 0),
      failures: joined.reduce((sum, j) => sum + j.failures, 0),
    };
  };
  const sdkJoined = await joinAll(sdks);
  const telnetJoined = await joinAll(telnetChildren);
  const rss1 = games.map((game) => rssBytes(pidOf(game)));

  const metricsBefore = await metricsOf(games);
  const cpuAllBefore = cpuSeconds(cluster.pids());
  const cpuGamesBefore = games.map((game) => cpuSeconds([pidOf(game)]));
  const t0 = performance.now();
  for (const child of children) child.child.send('go');
  const done = await Promise.all(children.map((child) => child.message('done')));
  for (const child of children) child.child.send('exit');
  const seconds = (performance.now() - t0) / 1000;
  const cpuAll = cpuSeconds(cluster.pids()) - cpuAllBefore;
  const cpuGames = games.map((game, i) => cpuSeconds([pidOf(game)]) - cpuGamesBefore[i]);
  const metricsAfter = await metricsOf(games);

  const sdkDone = done.slice(0, sdks.length);
  const telnetDone = done.slice(sdks.length);
  const latenciesOf = (group: typeof done, kinds: CrowdKind[] = CROWD_KINDS) =>
    group.flatMap((d) => kinds.flatMap((kind) => d.latencies[kind]));
  const all = latenciesOf(done);
  const hosts = AREAS.map((area) => {
    const at = metricsAfter.findIndex((text) => ticksByArea(text).has(area));
    if (at === -1) return { area, host: '-', hz: 0 };
    const ticks =
      (ticksByArea(metricsAfter[at]).get(area) ?? 0) - (ticksByArea(metricsBefore[at]).get(area) ?? 0);
    return { area, host: games[at].name, hz: ticks / seconds };
  });
  const perAction = (cpuSeconds: number) => ((cpuSeconds * 1000) / Math.max(1, all.length)).toFixed(2);
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

  console.log(
    `mud crowd, ${games.length} game processes: ${players} players (${sdkJoined.players} SDK + ${telnetJoined.players} telnet joined) over ${AREAS.length} areas, ${actions} actions each about every 2 s; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `  join ${sdkJoined.seconds.toFixed(1)} s SDK, ${telnetJoined.seconds.toFixed(1)} s telnet; join failures ${sdkJoined.failures + telnetJoined.failures}; ${sdks.length} SDK and ${telnetChildren.length} telnet load processes${nice ? ` at nice ${nice}` : ''}`,
  );
  console.log(
    `  action latency, all: ${latencySummary(all)}, max ${Math.max(0, ...all).toFixed(0)} ms (target p95 < 100 ms)`,
  );
  console.log(`    SDK (room.request to reply): ${latencySummary(latenciesOf(sdkDone))}`);
  console.log(`    telnet (line to its prompt): ${latencySummary(latenciesOf(telnetDone))}`);
  for (const kind of CROWD_KINDS) console.log(`    ${kind}: ${latencySummary(latenciesOf(done, [kind]))}`);
  const refused = done.reduce((sum, d) => sum + d.refused, 0);
  const failures = done.reduce((sum, d) => sum + d.failures, 0);
  console.log(
    `  ${all.length} actions in ${seconds.toFixed(1)} s = ${(all.length / seconds).toFixed(0)} actions/s; refused by the game (no such target, dead, …) ${refused}; failures (no answer in 10 s, errors) ${failures}`,
  );
  console.log(
    `  tick: ${hosts.map(({ area, host, hz }) => `${area} ${hz.toFixed(1)} (${host})`).join(', ')} Hz (configured ${1000 / TICK_MS} Hz)`,
  );
  console.log(
    `    servers: ${describeTicks(tickSnapshotOf(metricsBefore), tickSnapshotOf(metricsAfter), TICK_MS)}`,
  );
  console.log(
    `  server CPU ${perAction(cpuAll)} ms per action, every server process (engines included; ${((cpuAll / seconds) * 100).toFixed(0)}% of a core); game processes: ${games
      .map(
        (game, i) =>
          `${game.name} ${perAction(cpuGames[i])} ms (${((cpuGames[i] / seconds) * 100).toFixed(0)}% of a core)`,
      )
      .join(', ')}`,
  );
  const clientCpu = (group: typeof done) =>
    group.reduce((sum, d) => sum + d.cpuMs, 0) / Math.max(1, seconds * 10);
  console.log(
    `  load processes: SDK ${clientCpu(sdkDone).toFixed(0)}% of a core, telnet ${clientCpu(telnetDone).toFixed(0)}%; event-loop delay p99 SDK ${Math.max(0, ...sdkDone.map((d) => d.loopP99Ms)).toFixed(1)} ms, telnet ${Math.max(0, ...telnetDone.map((d) => d.loopP99Ms)).toFixed(1)} ms`,
  );
  console.log(
    `  game processes' RSS: ${games.map((game, i) => `${game.name} ${mb(rss0[i])} → ${mb(rss1[i])} MB after the joins, ${mb(rssBytes(pidOf(game)))} MB at the end`).join('; ')}`,
  );
  await Promise.all(exited);
}

const [players, actions, seed] = process.argv.slice(2).map(Number);
main(players || 2000, actions || 15, seed || 1).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
