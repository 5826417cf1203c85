import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, waitForLog, type RunningServer } from '../helpers/childProcess';

describe('the server process', () => {
  let server: RunningServer | undefined;
  let dataDir: string;
  let BASE_ENV: Record<string, string>;
  beforeEach(() => {
    // Its own data directory: the repository's ./data may be in use by a running platform or engine.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-process-'));
    BASE_ENV = {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: '10000',
      DATA_DIR: dataDir,
    };
  });
  afterEach(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on a bad variable, naming it and what was expected', async () => {
    server = spawnServer({ ...BASE_ENV, PORT: 'eighty', SIWE_NONCE_TTL_SECONDS: '-5' });
    const { code } = await server.exit;
    expect(code).toBe(78);
    expect(server.stderr.join('')).toBe(
      [
        'Invalid configuration:',
        '  PORT: expected an integer (got "eighty")',
        '  SIWE_NONCE_TTL_SECONDS: expected an integer >= 10 (got "-5")',
        '',
      ].join('\n'),
    );
  });

  it('refuses an unknown --role', async () => {
    server = spawnServer(BASE_ENV, ['--role', 'web']);
    const { code } = await server.exit;
    expect(code).toBe(78);
    expect(server.stderr.join('')).toContain(
      '--role: expected a comma-separated list of api, game, worker (got "web")',
    );
  });

  it('on SIGTERM finishes an in-flight request, then exits 0', async () => {
    server = spawnServer(BASE_ENV);
    const listening = await waitForLog(server, (line) => line.msg === 'listening');
    const port = listening.port as number;

    // The request is in flight at the server once it answers `100 Continue`; its body arrives only after the
    // server has started shutting down.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/slow-upload',
        headers: { 'Content-Type': 'application/json', Expect: '100-continue' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.on('continue', () => {
        req.write('{"part": ');
        server?.child.kill('SIGTERM');
        void waitForLog(server as RunningServer, (line) => line.msg === 'shutting down').then(() =>
          req.end('"two"}'),
        );
      });
      req.flushHeaders();
    });

    const { status, body } = await response;
    expect(status).toBe(404);
    expect(JSON.parse(body)).toMatchObject({
      code: 'ROUTE_NOT_FOUND',
      detail: 'No route for POST /slow-upload',
    });
    await expect(server.exit).resolves.toEqual({ code: 0, signal: null });
    const messages = server.stdout.map((line) => (JSON.parse(line) as { msg: string }).msg);
    const order = ['signal received', 'shutting down', 'request completed', 'stopped'].map((m) =>
      messages.indexOf(m),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
