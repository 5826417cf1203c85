/**
 * Area room capacity: N `@colyseus/sdk` clients (default 500) connected to ONE area room (`area_village`) of
 * the real platform (session auth, characters in the embedded MongoDB, 10 Hz tick), each sending actions and
 * timing their round trip (`room.request` until the room's reply).
 *
 * The platform runs in this process; the clients run in a forked child so the server's CPU is its own. Each
 * client signs in with a wallet (SIWE over HTTP), joins, then sends `actions` actions about once a second
 * (0.5-1.5 s apart): 60% look, 20% say (heard by its room), 20% move between the square and the market
 * (saved to MongoDB before the reply, and patched into every client's synchronised state). All clients
 * receive every patch and event; all but one skip decoding patches (real clients decode on their own
 * machines, and 500 decoders in one process would measure the load generator, not the room).
 * Printed: connected clients in the room, the tick rate held under load, join time, action round-trip
 * percentiles (all and per kind), event-loop delay, the server's CPU per action and memory.
 *
 * With `areas` the clients are spread over all six areas in the same process (their characters placed in each
 * area's respawn room, the village's in its square, before they join); only village players walk.
 *
 * With `telnet` a quarter of the clients (every fourth) play over the telnet port instead: they take a link code
 * (`POST /mud/telnet/code`) with their session, sign in at the prompt with `code <code>` (GMCP on), and type the same
 * commands (`look`, `say hello n`, `east`/`west`), timed from the line until the prompt after its answer.
 *
 * Usage: npx tsx bench/mudRoom.ts [clients=500] [actions=20] [areas] [telnet]
 * Targets: 500 clients in one area, p95 < 50 ms; a second line with 2000 clients over all areas.
 */
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { matchMaker } from '@colyseus/core';
import { Client, type Room } from '@colyseus/sdk';
import { Wallet } from 'ethers';
import type { AreaRoom } from '../rooms/AreaRoom';
import { loadWorld } from '../rooms/content/loader';
import { newCharacter } from '../rooms/persistence';
import { MongoPlayerStore } from '../services/mud/characterStore';
import { freeLoopbackPort } from './support/ports';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';
import { postJson, sendJson } from './support/postJson';
import { liveHeapBytes, percentile } from './support/stats';
import { BenchTerminal } from './support/telnetTerminal';
import { walletProof } from './support/walletProof';
import net from 'node:net';

type ChildMessage =
  | { kind: 'signed'; userIds: string[] }
  | { kind: 'joined'; joinSeconds: number }
  | {
      kind: 'done';
      latencies: Record<ActionKind, number[]>;
      /** The telnet clients' latencies (all kinds), when a quarter plays over telnet. */
      telnetLatencies: number[];
      telnetClients: number;
      failures: number;
      seconds: number;
      clientLoopP99Ms: number;
      observedPlayers: number;
    };

type ActionKind = 'look' | 'say' | 'move';

/** One player's session token and user id, through the public wallet sign-in (and `GET /auth/me`). */
async function signIn(
  port: number,
  domain: string,
  agent: http.Agent,
  withUserId: boolean,
): Promise<{ token: string; user_id: string }> {
  const proof = await walletProof(agent, port, domain, Wallet.createRandom());
  const { token } = JSON.parse((await postJson(agent, port, '/auth/wallet/verify', proof)).body) as {
    token: string;
  };
  if (!withUserId) return { token, user_id: '' };
  const me = JSON.parse((await sendJson(agent, port, 'GET', '/auth/me', undefined, token)).body) as {
    id: string;
  };
  return { token, user_id: me.id };
}

/** A telnet client signed into the session's character with a link code; resolves at the prompt after its look. */
async function telnetSignIn(
  port: number,
  telnetPort: number,
  agent: http.Agent,
  token: string,
): Promise<BenchTerminal> {
  const { code } = JSON.parse(
    (await sendJson(agent, port, 'POST', '/mud/telnet/code', undefined, token)).body,
  ) as {
    code: string;
  };
  const terminal = new BenchTerminal(net.connect(telnetPort, '127.0.0.1'), false);
  await terminal.prompt();
  const entered = terminal.prompt();
  terminal.line(`code ${code}`);
  await entered;
  return terminal;
}

/** Progress on stderr every 250 clients, so a long run shows where it is. */
function progress(step: string, done: number, of: number): void {
  if (done % 250 === 0 || done === of)
    process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${step} ${done}/${of}\n`);
}

/** The areas players are spread over in `areas` mode, in world order (client i plays in AREAS[i % n]). */
const AREAS = ['caves', 'forest', 'marsh', 'peaks', 'ruins', 'village'];

/** The client side (forked child): sign in, join, wait for "go", act, report latencies. */
async function runClients(
  port: number,
  domain: string,
  clients: number,
  actions: number,
  spread: boolean,
  telnetPort: number,
): Promise<void> {
  // Every fourth client plays over telnet when the platform has a telnet port.
  const overTelnet = (i: number) => telnetPort > 0 && i % 4 === 3;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 25 });
  const sessions: Array<{ token: string; user_id: string }> = [];
  for (let i = 0; i < clients; i += 25) {
    const batch = Array.from({ length: Math.min(25, clients - i) }, () =>
      signIn(port, domain, agent, spread),
    );
    sessions.push(...(await Promise.all(batch)));
    progress('signed in', sessions.length, clients);
  }
  if (spread) {
    process.send?.({ kind: 'signed', userIds: sessions.map((s) => s.user_id) } satisfies ChildMessage);
    await new Promise((resolve) => process.once('message', resolve));
  }
  const joinStart = performance.now();
  const rooms: Room[] = [];
  const terminals: Array<{ terminal: BenchTerminal; area: string }> = [];
  for (let i = 0; i < clients; i += 50) {
    const batch = sessions.slice(i, i + 50).map(async ({ token }, j) => {
      const area = spread ? AREAS[(i + j) % AREAS.length] : 'village';
      if (overTelnet(i + j)) return { terminal: await telnetSignIn(port, telnetPort, agent, token), area };
      const client = new Client(`http://127.0.0.1:${port}`);
      client.auth.token = token;
      const room = await client.joinOrCreate(`area_${area}`);
      room.onMessage('events', () => undefined);
      return room;
    });
    for (const joined of await Promise.all(batch)) {
      if ('terminal' in joined) terminals.push(joined);
      else rooms.push(joined);
    }
    progress('joined', rooms.length + terminals.length, clients);
  }
  process.send?.({
    kind: 'joined',
    joinSeconds: (performance.now() - joinStart) / 1000,
  } satisfies ChildMessage);
  await new Promise((resolve) => process.once('message', resolve));

  const latencies: Record<ActionKind, number[]> = { look: [], say: [], move: [] };
  const telnetLatencies: number[] = [];
  let failures = 0;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  const total = rooms.length + terminals.length;
  /** One player's actions; `act(kind, n, inSquare)` performs one and resolves when it is answered. */
  const play = async (
    i: number,
    walks: boolean,
    act: (kind: ActionKind, n: number, east: boolean) => Promise<void>,
  ) => {
    let inSquare = true;
    // Clients start spread over the first second, as independent players would, not in one burst.
    await new Promise((resolve) => setTimeout(resolve, (i * 1000) / total));
    for (let n = 0; n < actions; n++) {
      const pick = (i * 7 + n * 3) % 10;
      const kind: ActionKind = pick < 2 && walks ? 'move' : pick < 4 ? 'say' : 'look';
      const t0 = performance.now();
      try {
        await act(kind, n, inSquare);
        if (kind === 'move') inSquare = !inSquare;
        latencies[kind].push(performance.now() - t0);
      } catch {
        failures++;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 + ((i * 131 + n * 297) % 1001)));
    }
  };
  await Promise.all([
    ...rooms.map((room, i) =>
      play(i, !spread || room.name === 'area_village', async (kind, n, inSquare) => {
        if (kind === 'move') await room.request('move', { direction: inSquare ? 'east' : 'west' });
        else if (kind === 'say') await room.request('say', { text: `hello ${n}` });
        else await room.request('look');
      }),
    ),
    ...terminals.map(({ terminal, area }, i) =>
      play(rooms.length + i, area === 'village', async (kind, n, inSquare) => {
        const t0 = performance.now();
        const answered = terminal.prompt();
        terminal.line(
          kind === 'move' ? (inSquare ? 'east' : 'west') : kind === 'say' ? `say hello ${n}` : 'look',
        );
        const late = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('no prompt')), 10_000).unref(),
        );
        await Promise.race([answered, late]);
        telnetLatencies.push(performance.now() - t0);
      }),
    ),
  ]);
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  const clientLoopP99Ms = loop.percentile(99) / 1e6;
  const observedPlayers =
    (rooms[0]?.state as { players?: Map<string, unknown> } | undefined)?.players?.size ?? 0;
  process.send?.({
    kind: 'done',
    latencies,
    telnetLatencies,
    telnetClients: terminals.length,
    failures,
    seconds,
    clientLoopP99Ms,
    observedPlayers,
  } satisfies ChildMessage);
  await Promise.all(rooms.map((room) => room.leave().catch(() => undefined)));
  for (const { terminal } of terminals) terminal.socket.destroy();
  agent.destroy();
  process.exit(0);
}

/** The platform process: starts the platform, drives the client child, measures tick rate and its own CPU. */
async function main(clients: number, actions: number, spread: boolean, telnet: boolean): Promise<void> {
  const telnetPort = telnet ? await freeLoopbackPort() : 0;
  const bench = await startBenchPlatform('mud', {
    ROLES: 'api,game,worker',
    MUD_TICK_MS: '100',
    TELNET_PORT: String(telnetPort),
    TELNET_MAX_PER_ADDRESS: String(clients + 10),
  });
  const { platform, config } = bench;
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = liveHeapBytes();
  const { child, message } = forkLoadChild<ChildMessage>(
    __filename,
    [
      '--clients',
      String(platform.port),
      config.SIWE_DOMAIN,
      String(clients),
      String(actions),
      spread ? 'areas' : 'one',
      String(telnetPort),
    ],
    'client process',
  );
  if (spread) {
    // Place each new character in its area's respawn room, as if they had walked there.
    const { userIds } = await message('signed');
    const world = await loadWorld();
    const store = new MongoPlayerStore(platform.stores.mongo!);
    await Promise.all(
      userIds.map((userId, i) => {
        const record = newCharacter(world, { userId, name: `Bench-${i}` }, Date.now());
        const area = AREAS[i % AREAS.length];
        // Village players walk between the square and the market, like the one-area line.
        record.roomRef = area === 'village' ? world.startRoom : world.areas.get(area)!.respawnRoom;
        return store.save(record);
      }),
    );
    child.send('seeded');
  }

  const joined = await message('joined');
  const room = matchMaker.getLocalRoomById('area_village') as AreaRoom;
  const connected = spread
    ? AREAS.reduce(
        (sum, area) => sum + (matchMaker.getLocalRoomById(`area_${area}`) as AreaRoom).clients.length,
        0,
      )
    : room.clients.length;
  const tickBefore = room.state.tick;
  const cpuBefore = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  child.send('go');
  const done = await message('done');
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  const ticks = room.state.tick - tickBefore;
  const seconds = (performance.now() - t0) / 1000;
  const latencies = Object.values(done.latencies)
    .flat()
    .sort((a, b) => a - b);
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
  };
  const memory = process.memoryUsage();
  const players = connected + done.telnetClients;
  const liveHeap = liveHeapBytes() - heapBefore;

  console.log(
    `area room: ${clients} clients${done.telnetClients > 0 ? ' (every fourth over telnet)' : ' (SDK)'} in ${spread ? `${AREAS.length} areas (one process)` : 'area_village'}, ${actions} actions each; MongoDB ${config.MONGODB_URI ? 'external' : 'embedded in-process'}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `  connected clients: ${connected} SDK + ${done.telnetClients} telnet (target ${spread ? 2000 : 500}); players in the decoding client's state: ${done.observedPlayers}`,
  );
  console.log(`  tick: ${(ticks / seconds).toFixed(1)} Hz held under load (configured 10 Hz)`);
  console.log(`  join: ${joined.joinSeconds.toFixed(1)} s for all clients (sign-in excluded)`);
  console.log(
    `  action round trip, all: ${summary(latencies)}, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms (target p95 < 50 ms)`,
  );
  if (done.telnetClients > 0) {
    console.log(`    of which telnet (line to prompt, GMCP on): ${summary(done.telnetLatencies)}`);
  }
  console.log(`    look: ${summary(done.latencies.look)}`);
  console.log(`    say (heard by the room): ${summary(done.latencies.say)}`);
  console.log(`    move (saved to MongoDB before the reply): ${summary(done.latencies.move)}`);
  console.log(
    `  ${latencies.length} actions in ${done.seconds.toFixed(1)} s = ${(latencies.length / done.seconds).toFixed(0)} actions/s; failures ${done.failures}`,
  );
  console.log(
    `  event-loop delay p99: server ${(loop.percentile(99) / 1e6).toFixed(1)} ms, clients ${done.clientLoopP99Ms.toFixed(1)} ms`,
  );
  console.log(
    `  server CPU ${((cpu.user + cpu.system) / 1000 / latencies.length).toFixed(2)} ms per action (ticks, patches and saves included); rss ${Math.round(memory.rss / 2 ** 20)} MB, heap ${Math.round(memory.heapUsed / 2 ** 20)} MB`,
  );
  console.log(
    `  memory per connected client: ${((memory.rss - rssBefore) / 2 ** 10 / Math.max(1, players)).toFixed(0)} KB rss over the idle platform, ${(liveHeap / 2 ** 10 / Math.max(1, players)).toFixed(0)} KB of live heap (after a full GC)`,
  );
  await new Promise((resolve) => child.once('exit', resolve));
  await bench.stop();
  process.exit(0);
}

const [mode, ...args] = process.argv.slice(2);
const run =
  mode === '--clients'
    ? runClients(
        Number(args[0]),
        String(args[1]),
        Number(args[2]),
        Number(args[3]),
        args[4] === 'areas',
        Number(args[5]),
      )
    : main(Number(mode ?? 500), Number(args[0] ?? 20), args.includes('areas'), args.includes('telnet'));
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
