/**
 * Economy and marketplace speed (issue 19): a platform process (bench/economy/server.ts: identity, economy and
 * marketplace on the embedded stores) is driven over HTTP by this process with `concurrency` requests in flight:
 * POST /economy/transfer between random users (distinct idempotency keys) and POST /marketplace/listings/{id}/buy
 * of distinct listings (the whole saga: reserve, pay 95/5, deliver). Each prints requests per second and p50/p95.
 * Then the conservation audit over `auditEntries` ledger lines (synthetic, consistent) written straight into an
 * embedded MongoDB, timed. The load average is printed before and after: the machine is shared, read the rates
 * against it. Target: >= 300 purchases/s per process.
 * Run: npx tsx bench/economy.ts [transfers=3000] [purchases=3000] [concurrency=16] [auditEntries=1000000]
 * (BENCH_PROFILE=<dir> also writes a CPU profile of the server there)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Types } from 'mongoose';
import { startMongoEngine } from '../embedded/mongo';
import { silentLogger } from '../platform/logger';
import { systemClock } from '../platform/clock';
import { connectMongo } from '../platform/stores/mongo';
import { HARD_SUPPLY_CAP } from '../services/economy/accountIds';
import { auditEconomy } from '../services/economy/audit';
import { openEconomyCore } from '../services/economy/economyCore';
import { percentile } from './support/stats';
import { sendJson } from './support/postJson';

const TRANSFERS = Number(process.argv[2] ?? 3000);
const PURCHASES = Number(process.argv[3] ?? 3000);
const CONCURRENCY = Number(process.argv[4] ?? 16);
const AUDIT_ENTRIES = Number(process.argv[5] ?? 1_000_000);
const USERS = 200;

const agent = new http.Agent({ keepAlive: true });
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

interface Fixture {
  url: string;
  tokens: string[];
  userIds: string[];
  listings: string[];
}

/** CPU seconds (user + system) the process `pid` has used so far (Linux /proc; 0 elsewhere). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  try {
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

let serverPid: number | undefined;

async function startServer(): Promise<{ fixture: Fixture; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_PROFILE=<dir> writes a CPU profile of the server (setup included) there when it exits.
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      '--import',
      'tsx',
      path.join(__dirname, 'economy/server.ts'),
      String(USERS),
      String(PURCHASES),
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  serverPid = child.pid;
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { fixture: JSON.parse(line) as Fixture, stop: () => child.stdin?.end() };
}

/** Runs `count` requests made by `request(i)` with CONCURRENCY in flight; prints rate and latency percentiles. */
async function drive(label: string, count: number, request: (i: number) => Promise<number>): Promise<void> {
  const latencies: number[] = [];
  const failures = new Map<number, number>();
  let next = 0;
  const cpuBefore = await cpuSeconds(serverPid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const status = await request(i);
        latencies.push(performance.now() - t0);
        if (status >= 400) failures.set(status, (failures.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuPerRequest = ((await cpuSeconds(serverPid)) - cpuBefore) / count;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: ${(count / seconds).toFixed(0)}/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p95 ${percentile(latencies, 95).toFixed(1)} ms` +
      `  server CPU ${(cpuPerRequest * 1000).toFixed(2)} ms/request (one free core: ${cpuPerRequest > 0 ? (1 / cpuPerRequest).toFixed(0) : '?'}/s)` +
      `  (${count} requests, ${CONCURRENCY} in flight${failures.size ? `, failures ${JSON.stringify(Object.fromEntries(failures))}` : ''})`,
  );
}

async function httpPhases(): Promise<void> {
  const { fixture, stop } = await startServer();
  const port = Number(new URL(fixture.url).port);
  try {
    await drive('transfers', TRANSFERS, async (i) => {
      const from = i % USERS;
      const to = (i * 7 + 1) % USERS === from ? (from + 1) % USERS : (i * 7 + 1) % USERS;
      const body = {
        to_user_id: fixture.userIds[to],
        currency: 'soft',
        amount: '3',
        idempotency_key: `bench-transfer-${i}`,
      };
      return (await sendJson(agent, port, 'POST', '/economy/transfer', body, fixture.tokens[from])).status;
    });
    const sellers = Math.ceil(USERS / 2);
    await drive('purchases', PURCHASES, async (i) => {
      const buyer = sellers + (i % (USERS - sellers));
      const body = { idempotency_key: `bench-buy-${i}` };
      return (
        await sendJson(
          agent,
          port,
          'POST',
          `/marketplace/listings/${fixture.listings[i]}/buy`,
          body,
          fixture.tokens[buyer],
        )
      ).status;
    });
  } finally {
    stop();
  }
}

/** Writes AUDIT_ENTRIES consistent ledger lines (grants from the issuer to 1,000 users) and times the audit. */
async function auditPhase(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-audit-'));
  const engine = await startMongoEngine({ dir });
  const connection = await connectMongo(engine.uri, 'bench', silentLogger);
  try {
    const core = await openEconomyCore(connection, systemClock, { record: () => undefined });
    const accounts = 1000;
    const balances = new Array<number>(accounts).fill(0);
    const at = new Date();
    const writeStarted = performance.now();
    for (let start = 0; start < AUDIT_ENTRIES / 2; start += 5000) {
      const batch = [];
      for (let i = start; i < Math.min(start + 5000, AUDIT_ENTRIES / 2); i += 1) {
        const user = i % accounts;
        const amount = 1 + (i % 7);
        balances[user] += amount;
        const common = {
          heldDelta: 0,
          heldAfter: 0,
          kind: 'grant',
          ref: 'bench',
          op: `grant:${i}`,
          at,
          currency: 'soft',
        };
        batch.push({
          ...common,
          _id: new Types.ObjectId(),
          key: `grant:${i}:0`,
          account: 'system:issuer',
          delta: -amount,
          balanceAfter: 0,
        });
        batch.push({
          ...common,
          _id: new Types.ObjectId(),
          key: `grant:${i}:1`,
          account: `user:u${user}`,
          delta: amount,
          balanceAfter: balances[user],
        });
      }
      await core.ledger.collection.insertMany(batch, { ordered: false });
    }
    const total = balances.reduce((sum, b) => sum + b, 0);
    const base = { holds: [], held: 0, hard: 0, v: 1, pending: [], createdAt: at, updatedAt: at };
    await core.ledger.collection.insertOne({
      _id: new Types.ObjectId(),
      key: 'genesis:hard',
      account: 'system:issuer',
      currency: 'hard',
      delta: HARD_SUPPLY_CAP,
      heldDelta: 0,
      balanceAfter: HARD_SUPPLY_CAP,
      heldAfter: 0,
      kind: 'genesis',
      ref: 'hard-supply-cap',
      op: 'genesis',
      at,
    } as never);
    await core.accounts.collection.insertMany([
      { ...base, _id: 'system:issuer', owner: 'system', soft: -total, hard: HARD_SUPPLY_CAP },
      ...balances.map((soft, user) => ({ ...base, _id: `user:u${user}`, owner: 'user', soft })),
    ] as never[]);
    console.log(
      `audit: wrote ${AUDIT_ENTRIES} ledger lines in ${((performance.now() - writeStarted) / 1000).toFixed(1)} s`,
    );
    const report = await auditEconomy(core);
    console.log(
      `audit: ${report.ledgerEntries} entries, ${report.accounts} accounts, ok=${report.ok}, ${report.tookMs} ms`,
    );
  } finally {
    await connection.close();
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`load average before: ${load()} (cores: ${os.cpus().length})`);
  await httpPhases();
  console.log(`load average after HTTP phases: ${load()}`);
  await auditPhase();
  console.log(`load average after: ${load()}`);
  process.exit(0);
}

void main();
