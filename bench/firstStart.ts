/**
 * `npm run bench -- firstStart`: what a newcomer waits for after `npm start` on a fresh clone (dependencies already
 * installed). Prints: the build (`node build.mjs`: server transpile + web client), then, for a fresh DATA_DIR, the
 * time from spawning `node dist/main.js` to `/healthz` answering 200 and to the page at `/` answering 200; the
 * page load in Chromium (Debian's, via playwright-core) to the first room description after Play as guest; and the
 * client bundle's size, raw and gzipped. Compare with `tsc -p tsconfig.build.json` (the former build) with
 * `--tsc`. Figures depend on the machine's load: print `uptime` beside them.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..');
const PORT = 3099;
const URL_BASE = `http://localhost:${PORT}`;
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const result = work();
  return [result, performance.now() - started];
}

async function until(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 in time`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function main(): Promise<void> {
  console.log(
    `load: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  if (process.argv.includes('--tsc')) {
    const [, tscMs] = timed(() =>
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
        cwd: ROOT,
      }),
    );
    console.log(`tsc -p tsconfig.build.json: ${(tscMs / 1000).toFixed(1)} s`);
  }
  const [, buildMs] = timed(() => execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT }));
  console.log(`build (node build.mjs: server + web client): ${(buildMs / 1000).toFixed(2)} s`);

  const bundle = fs.readFileSync(path.join(ROOT, 'dist/web/app.js'));
  const css = fs.readFileSync(path.join(ROOT, 'dist/web/style.css'));
  const html = fs.readFileSync(path.join(ROOT, 'dist/web/index.html'));
  const total = bundle.length + css.length + html.length;
  const gzipped = [bundle, css, html].reduce((n, file) => n + gzipSync(file).length, 0);
  console.log(
    `web client: app.js ${(bundle.length / 1024).toFixed(0)} KiB, all assets ${(total / 1024).toFixed(0)} KiB, ` +
      `${(gzipped / 1024).toFixed(0)} KiB gzipped`,
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-start-'));
  const started = performance.now();
  const server = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    await until(`${URL_BASE}/healthz`, started + 120_000);
    const healthz = performance.now() - started;
    await until(`${URL_BASE}/`, started + 120_000);
    const page = performance.now() - started;
    console.log(
      `spawn → /healthz 200: ${(healthz / 1000).toFixed(2)} s; → / 200: ${(page / 1000).toFixed(2)} s`,
    );
    console.log(`npm start (build + start) → playable page: ${((buildMs + page) / 1000).toFixed(2)} s`);

    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: FLAGS,
    });
    try {
      for (const round of [1, 2, 3]) {
        const context = await browser.newContext();
        const tab = await context.newPage();
        const loadStarted = performance.now();
        await tab.goto(URL_BASE);
        await tab.click('#guest-play');
        await tab.waitForFunction(() => {
          const title = (
            globalThis as unknown as {
              document: { querySelector(s: string): { textContent: string | null } | null };
            }
          ).document.querySelector('#room-name');
          return Boolean(title && title.textContent && title.textContent !== '…');
        });
        const toRoom = performance.now() - loadStarted;
        console.log(
          `page load → Play as guest → first room description (round ${round}): ${toRoom.toFixed(0)} ms`,
        );
        await context.close();
      }
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
