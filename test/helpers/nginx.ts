import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './childProcess';

/**
 * Path of Debian's nginx, installing the `nginx-light` package first when it is absent (the tests run as root). When
 * the first install fails (a fresh image has no package lists), the lists are refreshed and the install retried; if
 * nginx still cannot be had, this throws, so the forward-auth suite fails instead of skipping.
 */
export function ensureNginx(): string {
  const find = () => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
  const existing = find();
  if (existing) return existing;
  const aptGet = (...args: string[]) =>
    execFileSync('apt-get', args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
    });
  try {
    aptGet('install', '-y', '-q', 'nginx-light');
  } catch {
    aptGet('update', '-q');
    aptGet('install', '-y', '-q', 'nginx-light');
  }
  const installed = find();
  if (!installed) throw new Error('nginx is not installed and apt-get could not install nginx-light');
  return installed;
}

/** A free loopback TCP port (nothing listens on it once this returns). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs nginx in the foreground with the repository's deploy/nginx/forward-auth.conf, its upstream addresses and
 * listen port rewritten to the test's servers, in a temporary prefix.
 */
export async function startForwardAuthNginx(platformPort: number, appPort: number): Promise<RunningNginx> {
  const binary = ensureNginx();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-nginx-'));
  const port = await freePort();
  const site = fs
    .readFileSync(path.join(REPO_ROOT, 'deploy/nginx/forward-auth.conf'), 'utf8')
    .replace(/server 127\.0\.0\.1:3000;/, `server 127.0.0.1:${platformPort};`)
    .replace(/server 127\.0\.0\.1:8080;/, `server 127.0.0.1:${appPort};`)
    .replace(/listen 8088;/, `listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(prefix, 'forward-auth.conf'), site);
  fs.writeFileSync(
    path.join(prefix, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${prefix}/nginx.pid;`,
      'error_log stderr warn;',
      'events { worker_connections 64; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${prefix}/${t};`),
      `  include ${prefix}/forward-auth.conf;`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    binary,
    ['-p', prefix, '-c', `${prefix}/nginx.conf`, '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  for (let attempt = 0; ; attempt++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || attempt > 100) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}
