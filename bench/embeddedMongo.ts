/**
 * Embedded MongoDB engine benchmark, through the official driver: single-document inserts/s and indexed point
 * reads/s (by a unique secondary index and by `_id`) on collections of 1k and 100k documents. Each collection is
 * filled with insertMany first (untimed); each figure is the median of three rounds.
 * Two setups: the engine in the benchmark's own process (how the platform embeds it; driver and engine share one
 * thread) and the engine in a child process started by the CLI (how a separate client such as mongosh, or a real
 * mongod, is reached).
 * Run: `npx tsx bench/embeddedMongo.ts [--child] [sizes...]` (default: in process, 1000 100000). Targets: >= 5,000 inserts/s,
 * >= 10,000 indexed reads/s, and indexed read time at 100k within 2x of 1k.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient, type Collection } from 'mongodb';
import { startMongoEngine } from '../embedded/mongo';

interface Player {
  _id: number;
  email: string;
  level: number;
  bio: string;
}

/** Single-document inserts timed per round, on top of the documents already there (removed again afterwards). */
const INSERTS = 5_000;
const READS = 20_000;
/** Each figure is the median of this many rounds: the dev machine is shared, so single runs are noisy. */
const ROUNDS = 3;
/** Concurrent requests for the "in flight" figures, as a server handling many clients would issue them. */
const IN_FLIGHT = 16;

async function sequential(count: number, operation: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i++) await operation(i);
}

async function concurrent(count: number, operation: () => Promise<void>): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started++ < count) await operation();
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

function buildPlayer(i: number): Player {
  return { _id: i, email: `player${i}@example.com`, level: i % 100, bio: `player number ${i} `.repeat(4) };
}

/** Runs `run` ROUNDS times (`before` untimed ahead of each), prints the median rate; returns seconds per op. */
async function timed(
  label: string,
  operations: number,
  run: () => Promise<void>,
  before?: () => Promise<void>,
): Promise<number> {
  const perOp: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await before?.();
    const start = process.hrtime.bigint();
    await run();
    perOp.push(Number(process.hrtime.bigint() - start) / 1e9 / operations);
  }
  perOp.sort((a, b) => a - b);
  const median = perOp[Math.floor(ROUNDS / 2)];
  const rate = (seconds: number) => Math.round(1 / seconds).toLocaleString('en-US');
  console.log(
    `  ${label.padEnd(28)} ${rate(median).padStart(9)} ops/s  ${(median * 1e6).toFixed(1).padStart(7)} µs/op` +
      `  (rounds: ${perOp.map(rate).join(', ')})`,
  );
  return median;
}

async function benchSize(players: Collection<Player>, size: number): Promise<{ indexedRead: number }> {
  console.log(`\n${size.toLocaleString('en-US')} documents`);
  await players.createIndex({ email: 1 }, { unique: true });
  for (let start = 0; start < size; start += 1000) {
    await players.insertMany(
      Array.from({ length: Math.min(1000, size - start) }, (_, i) => buildPlayer(start + i)),
    );
  }
  // Inserts land on a collection of `size` documents; the extra ones are removed before the next round.
  await timed(
    `insertOne (+${INSERTS.toLocaleString('en-US')})`,
    INSERTS,
    () => sequential(INSERTS, async (i) => void (await players.insertOne(buildPlayer(size + i)))),
    async () => void (await players.deleteMany({ _id: { $gte: size } })),
  );
  await players.deleteMany({ _id: { $gte: size } });
  // A fixed pseudo-random sequence so both sizes read the same way.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % size;
  const readByEmail = async () => {
    const n = next();
    const doc = await players.findOne({ email: `player${n}@example.com` });
    if (doc?._id !== n) throw new Error(`lookup of player${n} returned ${doc?._id}`);
  };
  const indexedRead = await timed('findOne by unique index', READS, () => sequential(READS, readByEmail));
  await timed(`  same, ${IN_FLIGHT} in flight`, READS, () => concurrent(READS, readByEmail));
  await timed('findOne by _id', READS, () =>
    sequential(READS, async () => void (await players.findOne({ _id: next() }))),
  );
  return { indexedRead };
}

/** A running engine to benchmark and how to stop it. */
interface Setup {
  label: string;
  uri: string;
  stop(): Promise<void>;
}

async function inProcess(dir: string): Promise<Setup> {
  const engine = await startMongoEngine({ dir });
  return { label: 'engine in the benchmark process', uri: engine.uri, stop: () => engine.close() };
}

async function childProcess(dir: string): Promise<Setup> {
  const cli = path.resolve(__dirname, '../embedded/mongo/cli.ts');
  const args = ['--import', 'tsx', cli, '--port', '0', '--dir', dir, '--log-level', 'warn'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: path.resolve(__dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`engine CLI exited with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { label: 'engine in a child process (CLI)', uri: uri.trim(), stop };
}

async function runSetup(start: (dir: string) => Promise<Setup>, sizes: number[]): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-mongo-bench-'));
  const setup = await start(dir);
  const client = await MongoClient.connect(`${setup.uri}bench`);
  console.log(`\n=== ${setup.label} ===`);
  try {
    // Warm the JIT on both sides of the socket so the first size is not measured cold.
    const warmup = client.db('bench').collection<Player>('warmup');
    await warmup.createIndex({ email: 1 }, { unique: true });
    for (let i = 0; i < 5000; i++) await warmup.insertOne(buildPlayer(i));
    for (let i = 0; i < 20_000; i++) {
      await warmup.findOne({ email: `player${i % 5000}@example.com` });
      await warmup.findOne({ _id: i % 5000 });
    }
    await warmup.drop();
    const results: number[] = [];
    for (const size of sizes) {
      const players = client.db('bench').collection<Player>(`players_${size}`);
      results.push((await benchSize(players, size)).indexedRead);
    }
    if (results.length >= 2) {
      console.log(
        `\nindexed read time, largest vs smallest size: ${(results[results.length - 1] / results[0]).toFixed(2)}x`,
      );
    }
  } finally {
    await client.close();
    await setup.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const requested = args.map(Number).filter((n) => n > 0);
  const sizes = requested.length ? requested : [1000, 100_000];
  await runSetup(args.includes('--child') ? childProcess : inProcess, sizes);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
