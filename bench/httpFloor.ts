/**
 * The HTTP floor: what one platform process spends on a request that does almost nothing, i.e. the cost every route
 * pays for the request context, access line, metrics, gateway rate limit, body parser, router and Node's HTTP server.
 * Defaults: `GET /brain/cache/stats` and `POST /auth/wallet/nonce`, 20,000 requests each at 8 in flight, access lines
 * at info (written to /dev/null), embedded stores, no Redis.
 *
 * The load comes from a child process (3,000 untimed warm-up requests first), so the platform process's CPU is its
 * own. Printed per route: requests/s and the platform's CPU time per request.
 *
 * Usage: npx tsx bench/httpFloor.ts ["METHOD /path" ...] [--requests=20000] [--concurrency=8]
 */
import http from 'node:http';
import os from 'node:os';
import pino from 'pino';
import { createLogger } from '../platform/logger';
import type { Platform } from '../platform/platform';
import { forkLoadChild, startBenchPlatform } from './support/platformProcess';

const WARM_UP = 3000;

type ChildMessage = { kind: 'ready' } | { kind: 'done'; seconds: number; failures: number };

function send(agent: http.Agent, port: number, route: string): Promise<number> {
  const [method = 'GET', target = '/'] = route.split(' ');
  const body = method === 'GET' ? undefined : '{}';
  return new Promise((resolve, reject) => {
    const headers = body ? { 'content-type': 'application/json', 'content-length': body.length } : {};
    const req = http.request({ host: '127.0.0.1', port, path: target, method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The load process: warms up, waits for "go", sends `total` requests with `concurrency` in flight. */
async function runLoad(port: number, route: string, total: number, concurrency: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const run = async (count: number) => {
    let sent = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent++ < count) if ((await send(agent, port, route)) >= 300) failures++;
      }),
    );
    return failures;
  };
  await run(WARM_UP);
  process.send?.({ kind: 'ready' } satisfies ChildMessage);
  await new Promise((resolve) => process.once('message', resolve));
  const started = performance.now();
  const failures = await run(total);
  process.send?.({
    kind: 'done',
    seconds: (performance.now() - started) / 1000,
    failures,
  } satisfies ChildMessage);
  agent.destroy();
}

async function measure(platform: Platform, route: string, total: number, concurrency: number): Promise<void> {
  const { child, message } = forkLoadChild<ChildMessage>(__filename, [
    '--load',
    String(platform.port),
    route,
    String(total),
    String(concurrency),
  ]);
  await message('ready');
  const before = process.cpuUsage();
  child.send('go');
  const done = await message('done');
  const cpu = process.cpuUsage(before);
  const cpuMs = (cpu.user + cpu.system) / 1000 / total;
  console.log(
    `  ${route}: ${(total / done.seconds).toFixed(0)} requests/s, platform CPU ${cpuMs.toFixed(3)} ms per request (${(1000 / cpuMs).toFixed(0)}/s on one free core), failures ${done.failures}`,
  );
  child.kill();
}

async function main(routes: string[], total: number, concurrency: number): Promise<void> {
  const logger = createLogger({
    level: 'info',
    destination: pino.destination({ dest: '/dev/null', sync: false }),
  });
  const bench = await startBenchPlatform('floor', { ROLES: 'api', LOG_LEVEL: 'info' }, logger);
  const { platform, config } = bench;
  console.log(
    `HTTP floor: ${total} requests per route at ${concurrency} in flight, Redis ${config.REDIS_URL ? 'yes' : 'no'}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  try {
    for (const route of routes) await measure(platform, route, total, concurrency);
  } finally {
    await bench.stop();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--load') {
  runLoad(Number(args[1]), String(args[2]), Number(args[3]), Number(args[4])).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  const option = (name: string, fallback: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const routes = args.filter((a) => !a.startsWith('--'));
  main(
    routes.length > 0 ? routes : ['GET /brain/cache/stats', 'POST /auth/wallet/nonce'],
    option('requests', 20000),
    option('concurrency', 8),
  ).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
