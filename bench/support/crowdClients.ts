/**
 * The load side of bench/mudCrowd.ts (a forked process): one client kind's players of the crowd, or a shard of them.
 * Player i of `players` plays over telnet when i % 4 === 3, through the SDK otherwise.
 */
import http from 'node:http';
import net from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Client, type Room } from '@colyseus/sdk';
import { loadWorld } from '../../rooms/content/loader';
import { CROWD_KINDS, crowdHome, pickKind, seeded, type CrowdHome, type CrowdKind } from './crowdPlan';
import { sendJson } from './postJson';
import { BenchTerminal } from './telnetTerminal';

export type CrowdMessage =
  | { kind: 'signed'; userIds: Array<[number, string]> }
  | { kind: 'joined'; seconds: number; players: number; failures: number }
  | {
      kind: 'done';
      latencies: Record<CrowdKind, number[]>;
      refused: number;
      failures: number;
      loopP99Ms: number;
      cpuMs: number;
    };

export interface CrowdOptions {
  kind: 'sdk' | 'telnet';
  port: number;
  telnetPort: number;
  players: number;
  actions: number;
  seed: number;
  /** This process's share of its kind's players: every `shards`-th from the `shard`-th (default: all). */
  shard?: number;
  shards?: number;
}

const ACTION_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const JOIN_TIMEOUT_MS = 60_000;

/** Rejects after `ms` (ACTION_TIMEOUT_MS) unless `work` settles first. */
function bounded<T>(work: Promise<T>, ms = ACTION_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** One player's way of acting: performs a kind of action, resolving true when answered, false when refused. */
type Act = (kind: CrowdKind, n: number) => Promise<boolean>;

interface Player {
  i: number;
  home: CrowdHome;
  token: string;
  act?: Act;
}

export async function runCrowdClients(options: CrowdOptions): Promise<void> {
  const { kind, port, telnetPort, players, actions, seed, shard = 0, shards = 1 } = options;
  // A forked process whose only handle is its IPC channel exits when a join hangs without a socket: stay up.
  const alive = setInterval(() => undefined, 1000);
  const world = await loadWorld();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 25 });
  const mine: Player[] = [];
  for (let i = 0; i < players; i++) {
    // The player's place among its kind's players, so shards of either kind are even.
    const ordinal = kind === 'telnet' ? Math.floor(i / 4) : i - Math.floor(i / 4);
    if ((i % 4 === 3) === (kind === 'telnet') && ordinal % shards === shard)
      mine.push({ i, home: crowdHome(world, i), token: '' });
  }
  const userIds: Array<[number, string]> = [];
  for (let start = 0; start < mine.length; start += 25) {
    await Promise.all(
      mine.slice(start, start + 25).map(async (player) => {
        const response = await sendJson(agent, port, 'POST', '/auth/guest');
        if (response.status !== 201) throw new Error(`guest sign-in: ${response.status} ${response.body}`);
        const body = JSON.parse(response.body) as { token: string; user_id: string };
        player.token = body.token;
        userIds.push([player.i, body.user_id]);
      }),
    );
  }
  process.send?.({ kind: 'signed', userIds } satisfies CrowdMessage);
  await new Promise((resolve) => process.once('message', resolve));

  const joinStart = performance.now();
  let joinFailures = 0;
  const closers: Array<() => void> = [];
  for (let start = 0; start < mine.length; start += 50) {
    await Promise.all(
      mine.slice(start, start + 50).map(async (player) => {
        try {
          player.act = await bounded(
            kind === 'sdk'
              ? joinSdk(port, player, closers)
              : joinTelnet(port, telnetPort, agent, player, closers),
            JOIN_TIMEOUT_MS,
          );
        } catch {
          joinFailures++;
        }
      }),
    );
    if ((start + 50) % 250 === 0)
      process.stderr.write(`${kind}: ${start + 50}/${mine.length} joined or given up\n`);
  }
  const playing = mine.filter((player) => player.act);
  process.send?.({
    kind: 'joined',
    seconds: (performance.now() - joinStart) / 1000,
    players: playing.length,
    failures: joinFailures,
  } satisfies CrowdMessage);
  await new Promise((resolve) => process.once('message', resolve));

  const latencies = Object.fromEntries(CROWD_KINDS.map((k) => [k, [] as number[]])) as Record<
    CrowdKind,
    number[]
  >;
  let refused = 0;
  let failures = 0;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpuBefore = process.cpuUsage();
  const deadline = performance.now() + actions * 3500 + 20_000;
  await Promise.all(
    playing.map(async (player) => {
      const random = seeded(seed * 100_003 + player.i);
      await sleep(random() * 2000); // independent people do not start together
      for (let n = 0; n < actions && performance.now() < deadline; n++) {
        const action = pickKind(player.home, random());
        const t0 = performance.now();
        try {
          if (!(await bounded(player.act!(action, n)))) refused++;
          latencies[action].push(performance.now() - t0);
        } catch {
          failures++;
        }
        await sleep(1000 + random() * 2000);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  process.send?.({
    kind: 'done',
    latencies,
    refused,
    failures,
    loopP99Ms: loop.percentile(99) / 1e6,
    cpuMs: (cpu.user + cpu.system) / 1000,
  } satisfies CrowdMessage);
  for (const close of closers) close();
  agent.destroy();
  clearInterval(alive);
  // Exit once the parent has read the report (it says `exit`), not on a timer: a busy parent read its IPC channel
  // so late that the child's exit came first and its report was lost (the run failed with "exited with 0").
  const exit = setTimeout(() => process.exit(0), 120_000);
  process.once('message', () => {
    clearTimeout(exit);
    process.exit(0);
  });
}

/** An SDK client in the player's area room; its actions are `room.request`s, refused when the room rejects. */
async function joinSdk(port: number, player: Player, closers: Array<() => void>): Promise<Act> {
  const client = new Client(`http://127.0.0.1:${port}`);
  client.auth.token = player.token;
  const room: Room = await client.joinOrCreate(`area_${player.home.area}`);
  room.onMessage('events', () => undefined);
  closers.push(() => void room.leave().catch(() => undefined));
  const { home } = player;
  let out = true;
  return async (kind, n) => {
    try {
      if (kind === 'move') {
        await room.request('move', { direction: out ? home.out : home.back });
        out = !out;
      } else if (kind === 'say') await room.request('say', { text: `hello ${n}` });
      else if (kind === 'attack') await room.request('attack', { target: home.creature });
      else if (kind === 'talk') await room.request('talk', { npc: home.npc });
      else await room.request(kind);
      return true;
    } catch (error) {
      if (error instanceof Error && error.message === 'no answer') throw error;
      return false;
    }
  };
}

/** A telnet client signed in with a link code; an action is a typed line, answered at the prompt after its answer. */
async function joinTelnet(
  port: number,
  telnetPort: number,
  agent: http.Agent,
  player: Player,
  closers: Array<() => void>,
): Promise<Act> {
  const response = await sendJson(agent, port, 'POST', '/mud/telnet/code', undefined, player.token);
  const { code } = JSON.parse(response.body) as { code: string };
  const terminal = new BenchTerminal(net.connect(telnetPort, '127.0.0.1'), false);
  closers.push(() => terminal.socket.destroy());
  await bounded(terminal.prompt());
  const entered = terminal.prompt(['exits:']);
  terminal.line(`code ${code}`);
  await bounded(entered);
  const { home } = player;
  const refusals = ['flee first', 'cannot go', 'you are dead', 'there is no', 'there is nobody'];
  let out = true;
  return async (kind, n) => {
    let line = kind as string;
    let expect = ['exits:'];
    if (kind === 'move') {
      line = (out ? home.out : home.back)!;
      expect = ['exits:'];
    } else if (kind === 'say') [line, expect] = [`say hello ${n}-${player.i}`, [`hello ${n}-${player.i}`]];
    else if (kind === 'attack') [line, expect] = [`attack ${home.creature}`, [home.creature!]];
    else if (kind === 'talk') [line, expect] = [`talk ${home.npc}`, [home.npc!]];
    else if (kind === 'quests') expect = ['quest'];
    const answered = terminal.prompt([...expect, ...refusals]);
    terminal.line(line);
    const text = await answered;
    const wasRefused = refusals.some((refusal) => text.includes(refusal));
    if (kind === 'move' && !wasRefused) out = !out;
    return !wasRefused;
  };
}
