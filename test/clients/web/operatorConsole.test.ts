import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import { launchBrowser, screenshot, type TestBrowser } from '../../helpers/browser';
import { REPO_ROOT, spawnServer, waitForLog, type RunningServer } from '../../helpers/childProcess';
import { freePort } from '../../helpers/nginx';
import { buildSiweMessage } from '../../helpers/siwe';

jest.setTimeout(180_000);

/** The page's DOM as the functions run inside the browser see it. */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const localStorage: { setItem(key: string, value: string): void };

const WAIT = { timeout: 60_000 };

/**
 * The operator console (`/admin.html`) in Debian's Chromium against the built server (`npm start`), with an admin
 * wallet (ADMIN_ADDRESSES) signed in over HTTP and its session in the page's storage, as the player page leaves it.
 */
describe('operator console in Chromium', () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let url: string;
  let env: Record<string, string>;
  const admin = Wallet.createRandom();

  /** Signs `wallet` in (or fails the proof with another key's signature when `forge` is set). */
  async function walletSignIn(wallet: BaseWallet, forge = false) {
    const { body } = await request(url).post('/auth/wallet/nonce').expect(201);
    const host = new URL(url).host;
    const message = buildSiweMessage(wallet, body.nonce, { domain: host, uri: url });
    const signature = await (forge ? Wallet.createRandom() : wallet).signMessage(message);
    return request(url)
      .post('/auth/wallet/verify')
      .send({ address: wallet.address, signature, nonce: body.nonce, message });
  }

  async function openConsole(token: string) {
    const context = await browser.context();
    await context.addInitScript((saved: string) => localStorage.setItem('forge.session', saved), token);
    const page = await context.newPage();
    await page.goto(`${url}/admin.html`);
    return { context, page };
  }

  beforeAll(async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
    const port = await freePort();
    env = {
      NODE_ENV: 'development',
      PORT: String(port),
      // Development opens the telnet port on 4000 by default; this server needs none (and 4000 may be taken).
      TELNET_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: await fs.promises.mkdtemp(path.join(os.tmpdir(), 'forge-console-')),
      LOG_LEVEL: 'info',
      BRAIN_SEED_ON_START: '0',
      ADMIN_ADDRESSES: admin.address,
    };
    url = `http://localhost:${port}`;
    server = spawnServer(env, [], 'dist');
    [browser] = await Promise.all([
      launchBrowser(),
      waitForLog(server, (line) => line.msg === 'listening', 120_000),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exit;
    await fs.promises.rm(env.DATA_DIR ?? '', { recursive: true, force: true });
  });

  it('shows status, health with its factors, audit search, anomalies, user activity and the monitor link', async () => {
    const intruder = Wallet.createRandom();
    for (let i = 0; i < 5; i += 1) expect((await walletSignIn(intruder, true)).status).toBe(401);
    const signedIn = await walletSignIn(admin);
    expect(signedIn.status).toBe(202);
    const me = await request(url)
      .get('/auth/me')
      .set('Authorization', `Bearer ${signedIn.body.token}`)
      .expect(200);
    const { context, page } = await openConsole(signedIn.body.token);
    await page.waitForFunction(
      () => /^\d+$/.test(document.querySelector('#health-score')?.textContent ?? ''),
      null,
      WAIT,
    );
    expect(await page.textContent('#health-factors')).toContain('error_rate');
    const areas = await page.textContent('#status-areas');
    for (const area of ['knowledge', 'audit', 'memory', 'social']) expect(areas).toContain(area);
    expect(await page.getAttribute('#monitor-link', 'href')).toBe(`${url}/colyseus`);

    await page.fill('#audit-query', 'failed login');
    await page.click('#audit-form button');
    await page.waitForFunction(
      () => /auth\.sign_in_failed/.test(document.querySelector('#audit-hits')?.textContent ?? ''),
      null,
      WAIT,
    );

    await page.click('#detect');
    await page.waitForFunction(
      () => /failed_sign_in_run/.test(document.querySelector('#anomalies')?.textContent ?? ''),
      null,
      WAIT,
    );

    await page.fill('#activity-user', me.body.id);
    await page.click('#activity-form button');
    await page.waitForFunction(
      () => /sign-in/.test(document.querySelector('#activity')?.textContent ?? ''),
      null,
      WAIT,
    );
    await screenshot(page, 'operator-console');
    await context.close();
  });

  it('tells a player without the admin role why it shows nothing', async () => {
    const player = await walletSignIn(Wallet.createRandom());
    const { context, page } = await openConsole(player.body.token);
    await page.waitForFunction(
      () => /403 ROLE_REQUIRED/.test(document.querySelector('#console-error')?.textContent ?? ''),
      null,
      WAIT,
    );
    expect(await page.textContent('#health-score')).toBe('–');
    await context.close();
  });
});
