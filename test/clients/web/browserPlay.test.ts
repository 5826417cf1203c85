import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../../helpers/browser';
import { REPO_ROOT, spawnServer, waitForLog, type RunningServer } from '../../helpers/childProcess';
import { freePort } from '../../helpers/nginx';

jest.setTimeout(180_000);

/** An element as the functions run inside the browser see it (the server's type check has no DOM library). */
interface PageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  hidden: boolean;
  labels?: ArrayLike<PageElement> | null;
  matches(selector: string): boolean;
  getAttribute(name: string): string | null;
  getClientRects(): ArrayLike<unknown>;
}

/** The page's DOM as the functions run inside the browser see it. */
declare const document: {
  activeElement: PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  getElementById(id: string): PageElement | null;
};

const WAIT = { timeout: 60_000 };

/** Types a line into the command box and sends it with Enter, as a keyboard-only player does. */
async function command(page: Page, line: string): Promise<void> {
  await page.focus('#command');
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Waits until the event log holds a line matching `pattern` (failing with the log when it does not). */
async function logShows(page: Page, pattern: RegExp): Promise<void> {
  try {
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('#log')?.textContent ?? ''),
      pattern.source,
      WAIT,
    );
  } catch (error) {
    throw new Error(`no ${pattern} in the log:\n${await page.textContent('#log')}`, { cause: error });
  }
}

async function roomIs(page: Page, name: string): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelector('#room-name')?.textContent === expected,
    name,
    WAIT,
  );
}

/** Presses Tab until the focused element matches `selector` (at most 80 times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    if (await page.evaluate((target) => document.activeElement?.matches(target) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/**
 * The visible controls without an accessible name (aria-label, aria-labelledby, a <label>, or a button's text), as
 * `tag#id` strings; empty when every control is named.
 */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button, input, select, textarea, meter, a[href], [role="button"]'))
      .filter((control) => control.getClientRects().length > 0)
      .filter((control) => {
        const labelledBy = (control.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join('');
        const labels = Array.from(control.labels ?? []).map((label) => label.textContent ?? '');
        const text = control.tagName === 'BUTTON' || control.tagName === 'A' ? control.textContent : '';
        const name = [
          control.getAttribute('aria-label'),
          labelledBy,
          ...labels,
          text,
          control.getAttribute('title'),
        ]
          .join('')
          .trim();
        return name.length === 0;
      })
      .map((control) => `${control.tagName.toLowerCase()}#${control.id}`),
  );
}

/** Opens the page, plays as a guest named `name`, and waits for the first room. */
async function guest(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await page.fill('#guest-name', name);
  await page.click('#guest-play');
  await roomIs(page, 'Village Square');
}

/**
 * The web client end to end in Debian's Chromium against the built server (`npm start`) started as on a fresh clone
 * (NODE_ENV=development defaults: SIWE on for localhost:PORT, guests on), the page at http://localhost:PORT.
 */
describe('web client in Chromium', () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let url: string;
  let env: Record<string, string>;

  async function startServer(): Promise<void> {
    server = spawnServer(env, [], 'dist');
    await waitForLog(server, (line) => line.msg === 'listening', 120_000);
  }

  beforeAll(async () => {
    // As `npm start` does: build the server and the client, then run dist/main.js.
    execFileSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
    const port = await freePort();
    env = {
      NODE_ENV: 'development',
      PORT: String(port),
      // Development opens the telnet port on 4000 by default; this server needs none (and 4000 may be taken).
      TELNET_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: await fs.promises.mkdtemp(path.join(os.tmpdir(), 'forge-web-')),
      LOG_LEVEL: 'info',
      BRAIN_SEED_ON_START: '0',
    };
    url = `http://localhost:${port}`;
    [browser] = await Promise.all([launchBrowser(), startServer()]);
  });

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exit;
    await fs.promises.rm(env.DATA_DIR ?? '', { recursive: true, force: true });
  });

  it('lets a guest look, move and fight, with the combat in the log', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('#guest-play', WAIT);
    await screenshot(page, 'sign-in');
    await page.fill('#guest-name', 'Ann Guest');
    await page.click('#guest-play');
    await roomIs(page, 'Village Square');
    expect(await page.textContent('#who')).toBe('Ann Guest · Anonymous');
    await command(page, 'look');
    await logShows(page, /Exits: north, east, south, west\./);
    await page.waitForFunction(() =>
      /speckled hen/.test(document.querySelector('#present')?.textContent ?? ''),
    );
    await command(page, 'attack hen');
    // Two hens share the square, so the first is named by its number (unless the other has wandered off).
    await logShows(page, /You attack the (first )?speckled hen!/);
    await logShows(page, /You (hit|miss) the (first )?speckled hen/);
    expect(await page.locator('#log .combat').count()).toBeGreaterThan(1);
    // The fight ends when the hen dies or flees at low health; then the player may walk on.
    await page.waitForFunction(
      () => document.querySelector('[data-stat="status"]')?.textContent === 'idle',
      null,
      WAIT,
    );
    await screenshot(page, 'game');
    await page.click('#exits button[aria-label="Go east"]');
    await roomIs(page, 'Market Row');
    // Into the next area: the handoff is followed on the same page, without a reload.
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    await command(page, 'east');
    await roomIs(page, 'East Gate');
    await command(page, 'east');
    await roomIs(page, 'Forest Edge');
    await page.waitForFunction(
      () => document.querySelector('[data-stat="area"]')?.textContent !== 'Thornwick Village',
    );
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'game-phone');
    await context.close();
  });

  it("shows two players each other's speech and arrival", async () => {
    const [first, second] = await Promise.all([browser.context(), browser.context()]);
    const ann = await first.newPage();
    const bob = await second.newPage();
    await guest(ann, url, 'Ann Second');
    await guest(bob, url, 'Bob Second');
    await command(ann, 'say well met');
    await logShows(bob, /Ann Second says: "well met"/);
    await command(bob, 'east');
    await roomIs(bob, 'Market Row');
    await command(bob, 'west');
    await logShows(ann, /Bob Second arrives\./);
    await ann.waitForFunction(() => /Bob Second/.test(document.querySelector('#present')?.textContent ?? ''));
    await Promise.all([first.close(), second.close()]);
  });

  it('can be played by keyboard alone, every control named', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('#guest-play', WAIT);
    expect(await unnamedControls(page)).toEqual([]);
    // Sign in: Tab to the name field, type, Enter submits the guest form.
    await tabTo(page, '#guest-name');
    await page.keyboard.type('Eve Keys');
    await page.keyboard.press('Enter');
    await roomIs(page, 'Village Square');
    expect(await unnamedControls(page)).toEqual([]);
    // Walk through an exit button reached by Tab, then back with the command line reached by Tab.
    await tabTo(page, '#exits button[aria-label="Go east"]');
    await page.keyboard.press('Enter');
    await roomIs(page, 'Market Row');
    await tabTo(page, '#command');
    await page.keyboard.type('w');
    await page.keyboard.press('Enter');
    await roomIs(page, 'Village Square');
    expect(await page.textContent('#who')).toBe('Eve Keys · Anonymous');
    await context.close();
  });

  it('keeps the session across a reload', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await guest(page, url, 'Cara Reload');
    await page.reload();
    await roomIs(page, 'Village Square');
    expect(await page.isHidden('#sign-in')).toBe(true);
    expect(await page.textContent('#who')).toBe('Cara Reload · Anonymous');
    await context.close();
  });

  it('signs in with a browser wallet (SIWE on the development defaults)', async () => {
    const wallet = Wallet.createRandom();
    const context = await browser.context();
    await context.exposeFunction('testWalletSign', (message: string) => wallet.signMessage(message));
    await context.addInitScript((address: string) => {
      const fromHex = (hex: string) =>
        new TextDecoder().decode(
          new Uint8Array((hex.slice(2).match(/../g) ?? []).map((b) => parseInt(b, 16))),
        );
      const sign = (globalThis as unknown as { testWalletSign(m: string): Promise<string> }).testWalletSign;
      (globalThis as unknown as { ethereum: unknown }).ethereum = {
        request: async ({ method, params }: { method: string; params?: string[] }) => {
          if (method === 'eth_requestAccounts') return [address.toLowerCase()];
          if (method === 'eth_chainId') return '0x2105';
          if (method === 'personal_sign') return sign(fromHex(params?.[0] ?? '0x'));
          throw new Error(`unsupported ${method}`);
        },
      };
    }, wallet.address);
    const page = await context.newPage();
    await page.goto(url);
    await page.click('#wallet-sign-in');
    await roomIs(page, 'Village Square');
    await page.waitForFunction(
      () => /Verified$/.test(document.querySelector('#who')?.textContent ?? ''),
      null,
      WAIT,
    );
    await context.close();
  });

  it('reconnects and carries on after the server restarts', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await guest(page, url, 'Dan Restart');
    await command(page, 'south');
    await roomIs(page, 'The Sleeping Boar Inn');
    server.child.kill('SIGTERM');
    await server.exit;
    await page.waitForFunction(
      () => document.querySelector('#connection')?.textContent !== 'online',
      null,
      WAIT,
    );
    await startServer();
    await page.waitForFunction(
      () => document.querySelector('#connection')?.textContent === 'online',
      null,
      WAIT,
    );
    await command(page, 'look');
    await logShows(page, /Exits:.*north/);
    await command(page, 'north');
    await roomIs(page, 'Village Square');
    await context.close();
  });
});
