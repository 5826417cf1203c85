/**
 * Telnet players at a human pace: N MUD-client connections (default 500) to the real platform's telnet port, each
 * signing in at the prompt as a guest (`guest`), with GMCP on (and MCCP2 with `mccp`), then typing a command about
 * every two seconds (1.5-2.5 s apart): 60% look, 20% say (heard by the room), 20% move between the square and the
 * market. Each command is timed from the line sent until the prompt after its answer (IAC EOR).
 *
 * The platform runs in this process; the clients in a forked child, so the server's CPU is its own. Printed: command
 * latency percentiles (all and per kind), the server's CPU per command (ticks, GMCP refreshes and saves included),
 * event-loop delay, and memory per telnet connection. This gives the telnet column of the mixed-client figures.
 *
 * Usage: npx tsx bench/telnetPlayers.ts [clients=500] [commands=15] [mccp]
 */
import net from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';
import { liveHeapBytes, percentile } from './support/stats';
import { BenchTerminal } from './support/telnetTerminal';

type Kind = 'look' | 'say' | 'move';
type ChildMessage =
  | { kind: 'signed'; seconds: number; failures: number }
  | { kind: 'done'; latencies: Record<Kind, number[]>; failures: number; seconds: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client side (forked child): connect and sign in, wait for "go", type commands, report latencies. */
async function runClients(port: number, clients: number, commands: number, mccp: boolean): Promise<void> {
  const terminals: BenchTerminal[] = [];
  let failures = 0;
  const signStart = performance.now();
  for (let i = 0; i < clients; i += 25) {
    const batch = Array.from({ length: Math.min(25, clients - i) }, async () => {
      const socket = net.connect(port, '127.0.0.1');
      const terminal = new BenchTerminal(socket, mccp);
      await terminal.prompt();
      terminal.line('guest');
      await terminal.prompt(); // the prompt after the first look
      return terminal;
    });
    terminals.push(...(await Promise.all(batch)));
    if (terminals.length % 250 === 0) process.stderr.write(`signed in ${terminals.length}/${clients}\n`);
  }
  process.send?.({
    kind: 'signed',
    seconds: (performance.now() - signStart) / 1000,
    failures,
  } satisfies ChildMessage);
  await new Promise((resolve) => process.once('message', resolve));

  const latencies: Record<Kind, number[]> = { look: [], say: [], move: [] };
  const started = performance.now();
  await Promise.all(
    terminals.map(async (terminal, i) => {
      let inSquare = true;
      await sleep((i * 2000) / terminals.length);
      for (let n = 0; n < commands; n++) {
        const pick = (i * 7 + n * 3) % 10;
        const kind: Kind = pick < 2 ? 'move' : pick < 4 ? 'say' : 'look';
        const answered = terminal.prompt();
        const t0 = performance.now();
        terminal.line(
          kind === 'move' ? (inSquare ? 'east' : 'west') : kind === 'say' ? `say hello ${n}` : 'look',
        );
        const timedOut = await Promise.race([answered.then(() => false), sleep(10_000).then(() => true)]);
        if (timedOut) failures++;
        else latencies[kind].push(performance.now() - t0);
        if (kind === 'move') inSquare = !inSquare;
        await sleep(1500 + ((i * 131 + n * 297) % 1001));
      }
    }),
  );
  process.send?.({
    kind: 'done',
    latencies,
    failures,
    seconds: (performance.now() - started) / 1000,
  } satisfies ChildMessage);
  for (const terminal of terminals) terminal.socket.destroy();
  process.exit(0);
}

/** The platform process: starts the platform with its telnet port, drives the child, measures CPU and memory. */
async function main(clients: number, commands: number, mccp: boolean): Promise<void> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const bench = await startBenchPlatform('telnet', {
    ROLES: 'api,game,worker',
    MUD_TICK_MS: '100',
    TELNET_PORT: String(port),
    TELNET_MAX_PER_ADDRESS: String(clients + 10),
    GUEST_SIGNIN_PER_HOUR: String(clients * 2),
  });
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = liveHeapBytes();
  const { child, message } = forkLoadChild<ChildMessage>(
    __filename,
    ['--clients', String(port), String(clients), String(commands), mccp ? 'mccp' : 'plain'],
    'telnet clients',
  );
  const signed = await message('signed');
  const rssSigned = process.memoryUsage().rss;
  const heapSigned = liveHeapBytes();
  const cpuBefore = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  child.send('go');
  const done = await message('done');
  const cpu = process.cpuUsage(cpuBefore);
  loop.disable();
  const all = Object.values(done.latencies)
    .flat()
    .sort((a, b) => a - b);
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
  };
  console.log(
    `telnet: ${clients} guests on the telnet port (GMCP on, MCCP2 ${mccp ? 'on' : 'off'}), ${commands} commands each about every 2 s; ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`  connect + guest sign-in + first look: ${signed.seconds.toFixed(1)} s for all`);
  console.log(
    `  command to prompt, all: ${summary(all)}, max ${(all.at(-1) ?? 0).toFixed(1)} ms (target p95 < 100 ms)`,
  );
  console.log(`    look: ${summary(done.latencies.look)}`);
  console.log(`    say: ${summary(done.latencies.say)}`);
  console.log(`    move (saved before the answer; GMCP Room.Info): ${summary(done.latencies.move)}`);
  console.log(
    `  ${all.length} commands in ${done.seconds.toFixed(1)} s = ${(all.length / done.seconds).toFixed(0)}/s; failures ${done.failures}`,
  );
  console.log(`  server event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`);
  console.log(
    `  server CPU ${((cpu.user + cpu.system) / 1000 / Math.max(1, all.length)).toFixed(2)} ms per command (ticks, GMCP refreshes and saves included)`,
  );
  console.log(
    `  memory per telnet player: ${((rssSigned - rssBefore) / 2 ** 10 / clients).toFixed(0)} KB rss, ${((heapSigned - heapBefore) / 2 ** 10 / clients).toFixed(0)} KB of live heap (after a full GC)`,
  );
  await new Promise((resolve) => child.once('exit', resolve));
  await bench.stop();
  process.exit(0);
}

const [mode, ...args] = process.argv.slice(2);
const run =
  mode === '--clients'
    ? runClients(Number(args[0]), Number(args[1]), Number(args[2]), args[3] === 'mccp')
    : main(Number(mode ?? 500), Number(args[0] ?? 15), args[1] === 'mccp');
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
