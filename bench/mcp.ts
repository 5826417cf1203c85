/**
 * MCP gateway overhead (issue 22): a cheap read-only tool through `/mcp` against the same operation over REST.
 * The operation is the search cache's statistics (`brain_cache_stats` / `GET /brain/cache/stats`: in-memory
 * counters, no store round trip), so the difference is the gateway's own cost: bearer check, session lookup,
 * JSON-RPC parsing, the caller's two rate-limit counters (Redis when 127.0.0.1:6379 answers), argument and output
 * validation, metrics and the (write-behind) audit record. Rounds alternate REST and MCP, one request in flight
 * over a keep-alive connection, and the figures are the medians over rounds (a shared machine's load moves both
 * alike). Then memory per open session: heap and RSS growth over N sessions opened with `initialize`.
 * Run: npx tsx bench/mcp.ts [calls per round=1000] [rounds=5] [sessions=500]
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '../platform/config';
import { Platform } from '../platform/platform';
import { productParts } from '../productParts';
import { percentile } from './support/stats';

const CALLS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);
const SESSIONS = Number(process.argv[4] ?? 500);
const TOKEN = 'bench-service-token-0123456789';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
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

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(tmpdir(), 'forge-bench-mcp-'));
  const redis = await redisUrl();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ROLES: 'api,worker',
    LOG_LEVEL: 'silent',
    REDIS_URL: redis,
    BRAIN_SERVICE_TOKEN: TOKEN,
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
    MCP_CALLS_PER_MINUTE: '100000000',
    MCP_TOOL_CALLS_PER_MINUTE: '100000000',
    MCP_MAX_SESSIONS: String(SESSIONS + 10),
    MCP_MAX_SESSIONS_PER_CALLER: String(SESSIONS + 10),
  });
  const platform = await Platform.start({ config, logger: pino({ level: 'silent' }), parts: productParts });
  const port = platform.port;
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
    await round(rest);
    await round(mcp);
    const figures = {
      rest: { p50: [] as number[], p95: [] as number[], rate: [] as number[] },
      mcp: { p50: [] as number[], p95: [] as number[], rate: [] as number[] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of [
        ['rest', rest],
        ['mcp', mcp],
      ] as const) {
        const result = await round(run);
        figures[name].p50.push(percentile(result.times, 50));
        figures[name].p95.push(percentile(result.times, 95));
        figures[name].rate.push(result.perSecond);
      }
    }
    const f = (ms: number) => `${ms.toFixed(3)} ms`;
    for (const name of ['rest', 'mcp'] as const) {
      const label = name === 'rest' ? 'REST GET /brain/cache/stats ' : 'MCP  tools/call brain_cache_stats';
      console.log(
        `${label}: ${median(figures[name].rate).toFixed(0)} calls/s, p50 ${f(median(figures[name].p50))}, p95 ${f(median(figures[name].p95))}`,
      );
    }
    const added = median(figures.mcp.p50) - median(figures.rest.p50);
    console.log(
      `gateway adds ${f(added)} at p50 (target < 1 ms); REST/MCP throughput ratio ${(median(figures.rest.rate) / median(figures.mcp.rate)).toFixed(2)}`,
    );

    gc();
    const before = process.memoryUsage();
    for (let i = 0; i < SESSIONS; i++) await openSession(port);
    gc();
    const after = process.memoryUsage();
    const perSession = (key: 'heapUsed' | 'rss') => ((after[key] - before[key]) / SESSIONS / 1024).toFixed(1);
    console.log(
      `memory per open session (${SESSIONS} sessions): heap ${perSession('heapUsed')} KiB, RSS ${perSession('rss')} KiB`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    await platform.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
