import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { findProjectRoot, PROJECT_ROOT } from '../../platform/projectRoot';
import { REPO_ROOT, spawnServer, waitForLog, type RunningServer } from '../helpers/childProcess';

const run = promisify(execFile);

/** Every area the shipped world holds: one folder under world/ each. */
const SHIPPED_AREAS = fs
  .readdirSync(path.join(REPO_ROOT, 'world'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('findProjectRoot', () => {
  it('finds the folder holding package.json from source and from dist/ alike', () => {
    expect(PROJECT_ROOT).toBe(REPO_ROOT);
    expect(findProjectRoot(path.join(REPO_ROOT, 'dist', 'rooms', 'content'))).toBe(REPO_ROOT);
  });

  it('names the folder it started from when no package.json is above it', () => {
    const lonely = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-no-package-'));
    try {
      expect(() => findProjectRoot(lonely)).toThrow(`No package.json at or above ${lonely}`);
    } finally {
      fs.rmSync(lonely, { recursive: true, force: true });
    }
  });
});

/** The quick start's `npm start` runs the compiled server: build it as `npm run build` does, then run it. */
describe('the compiled server (npm start)', () => {
  let server: RunningServer | undefined;
  let dataDir: string;

  beforeAll(async () => {
    await run(process.execPath, ['build.mjs'], { cwd: REPO_ROOT });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-built-'));
  }, 120_000);

  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on the embedded defaults with every product area, and stops cleanly on SIGTERM', async () => {
    server = spawnServer({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir }, [], 'dist');
    const listening = await waitForLog(server, (line) => line.msg === 'listening', 60_000);
    const url = `http://127.0.0.1:${listening.port as number}`;

    expect((await request(url).get('/readyz')).status).toBe(200);
    const page = await request(url).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Play as guest');
    const spawns = await request(url).get('/mud/spawns/status');
    expect(spawns.status).toBe(200);
    expect(spawns.body.areas.map((area: { area_id: string }) => area.area_id).sort()).toEqual(SHIPPED_AREAS);
    expect((await request(url).get('/brain/stats')).status).toBe(200);
    const mint = await request(url).post('/api/punk-seed/mint').send({ address: '0x' });
    expect(mint.status).toBe(401);

    server.child.kill('SIGTERM');
    expect(await server.exit).toEqual({ code: 0, signal: null });
  }, 90_000);
});
