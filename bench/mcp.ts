/**
 * MCP gateway overhead (issues 22, 40): a cheap read-only tool through `/mcp` against the same operation over REST,
 * on both revisions the gateway serves: 2025-11-25 (a session opened with `initialize`) and 2026-07-28 (no session:
 * every request carries its `_meta` envelope and a server instance answers it alone).
 * The operation is the search cache's statistics (`brain_cache_stats` / `GET /brain/cache/stats`: in-memory
 * counters, no store round trip), so the difference is the gateway's own cost: bearer check, session lookup or
 * per-request server, JSON-RPC parsing, the caller's two rate-limit counters and two daily quota counters (Redis when
 * 127.0.0.1:6379 answers), argument and output validation, metrics, usage metering and the (write-behind) audit
 * record. Rounds alternate REST and the two MCP revisions, one request in flight
 * over a keep-alive connection, and the figures are the medians over rounds (a shared machine's load moves both
 * alike). The platform runs in its own process (bench/mcp/server.ts); each line also gives the server's CPU time per
 * call from /proc, which hardly moves with the machine's load. Then memory per open session: the server's heap and
 * RSS growth (after a full GC) over N sessions opened with `initialize`.
 * Run: npx tsx bench/mcp.ts [calls per round=1000] [rounds=5] [sessions=500]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { percentile } from './support/stats';

const CALLS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);
const SESSIONS = Number(process.argv[4] ?? 500);
const TOKEN = 'bench-service-token-0123456789';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(
  port: number,
  method: string,
  route: string,
  body?: unknown,
  session?: string,
  mcpHeaders?: Record<string, string>,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${TOKEN}` };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
    headers.accept = 'application/json, text/event-stream';
  }
  if (session) {
    headers['mcp-session-id'] = session;
    headers['mcp-protocol-version'] = '2025-11-25';
  }
  Object.assign(headers, mcpHeaders);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: route, method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

async function openSession(port: number): Promise<string> {
  const answer = await send(port, 'POST', '/mcp', INITIALIZE);
  const id = answer.headers['mcp-session-id'];
  if (answer.status !== 200 || typeof id !== 'string')
    throw new Error(`initialize: ${answer.status} ${answer.body}`);
  await send(port, 'POST', '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, id);
  return id;
}

/** `CALLS` sequential requests; sorted latencies in ms and calls/s. */
async function round(run: (i: number) => Promise<void>) {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return { times: times.sort((a, b) => a - b), perSecond: CALLS / ((performance.now() - started) / 1000) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function redisUrl(): Promise<string> {
  const redis = new Redis({ lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return 'redis://127.0.0.1:6379';
  } catch {
    return '';
  } finally {
    redis.disconnect();
  }
}

interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** The server's memory after a full garbage collection. */
  memory(): Promise<NodeJS.MemoryUsage>;
}

async function startServer(redis: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'mcp/server.ts')], {
    env: { ...process.env, BENCH_SESSIONS: String(SESSIONS), ...(redis ? { BENCH_REDIS_URL: redis } : {}) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
  const url = await nextLine();
  return {
    port: Number(new URL(url).port),
    child,
    memory: async () => {
      const answer = nextLine();
      child.stdin!.write('memory\n');
      return JSON.parse(await answer) as NodeJS.MemoryUsage;
    },
  };
}

/** CPU time (user + system) the server process has used, in ms; undefined where /proc is missing. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const redis = await redisUrl();
  const server = await startServer(redis);
  const { port } = server;
  try {
    console.log(`load average before: ${load()}  (Redis limiters: ${redis ? 'yes' : 'no, in memory'})`);
    const session = await openSession(port);
    const rest = async () => {
      const answer = await send(port, 'GET', '/brain/cache/stats');
      if (answer.status !== 200) throw new Error(`REST ${answer.status}`);
    };
    const mcp = async (i: number) => {
      const answer = await send(
        port,
        'POST',
        '/mcp',
        {
          jsonrpc: '2.0',
          id: i + 1,
          method: 'tools/call',
          params: { name: 'brain_cache_stats', arguments: {} },
        },
        session,
      );
      if (answer.status !== 200 || answer.body.includes('"isError":true'))
        throw new Error(`MCP ${answer.body}`);
    };
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modernHeaders = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'brain_cache_stats',
    };
    const modern = async (i: number) => {
      const answer = await send(
        port,
        'POST',
        '/mcp',
        {
          jsonrpc: '2.0',
          id: i + 1,
          method: 'tools/call',
          params: { name: 'brain_cache_stats', arguments: {}, _meta: envelope },
        },
        undefined,
        modernHeaders,
      );
      if (answer.status !== 200 || !answer.body.includes('"resultType":"complete"'))
        throw new Error(`MCP 2026-07-28 ${answer.body}`);
    };
    await round(rest);
    await round(mcp);
    await round(modern);
    const empty = () => ({
      p50: [] as number[],
      p95: [] as number[],
      rate: [] as number[],
      cpu: [] as number[],
    });
    const figures = { rest: empty(), mcp: empty(), modern: empty() };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of [
        ['rest', rest],
        ['mcp', mcp],
        ['modern', modern],
      ] as const) {
        const cpuBefore = cpuMs(server.child.pid);
        const result = await round(run);
        const cpuAfter = cpuMs(server.child.pid);
        figures[name].p50.push(percentile(result.times, 50));
        figures[name].p95.push(percentile(result.times, 95));
        figures[name].rate.push(result.perSecond);
        if (cpuBefore !== undefined && cpuAfter !== undefined)
          figures[name].cpu.push(((cpuAfter - cpuBefore) * 1000) / CALLS);
      }
    }
    const f = (ms: number) => `${ms.toFixed(3)} ms`;
    const labels = {
      rest: 'REST GET /brain/cache/stats                  ',
      mcp: 'MCP 2025-11-25 tools/call brain_cache_stats  ',
      modern: 'MCP 2026-07-28 tools/call brain_cache_stats  ',
    };
    for (const name of ['rest', 'mcp', 'modern'] as const) {
      const label = labels[name];
      const cpu = figures[name].cpu.length
        ? `, server CPU ${median(figures[name].cpu).toFixed(0)} µs/call`
        : '';
      console.log(
        `${label}: ${median(figures[name].rate).toFixed(0)} calls/s, p50 ${f(median(figures[name].p50))}, p95 ${f(median(figures[name].p95))}${cpu}`,
      );
    }
    for (const name of ['mcp', 'modern'] as const) {
      const added = median(figures[name].p50) - median(figures.rest.p50);
      const cpuAdded = figures[name].cpu.length
        ? `, server CPU +${(median(figures[name].cpu) - median(figures.rest.cpu)).toFixed(0)} µs/call`
        : '';
      console.log(
        `${name === 'mcp' ? '2025-11-25' : '2026-07-28'}: gateway adds ${f(added)} at p50 (target < 1 ms)${cpuAdded}; REST/MCP calls/s ratio ${(median(figures.rest.rate) / median(figures[name].rate)).toFixed(2)}`,
      );
    }

    const before = await server.memory();
    for (let i = 0; i < SESSIONS; i++) await openSession(port);
    const after = await server.memory();
    const perSession = (key: 'heapUsed' | 'rss') => ((after[key] - before[key]) / SESSIONS / 1024).toFixed(1);
    console.log(
      `memory per open session (${SESSIONS} sessions): heap ${perSession('heapUsed')} KiB, RSS ${perSession('rss')} KiB`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
