import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../../helpers/browser';
import { REPO_ROOT, spawnServer, waitForLog, type RunningServer } from '../../helpers/childProcess';
import { freePort } from '../../helpers/nginx';

jest.setTimeout(180_000);

/** An element as the functions run inside the browser see it (the server's type check has no DOM library). */
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };

const WAIT = { timeout: 60_000 };

async function command(page: Page, line: string): Promise<void> {
  await page.focus('#command');
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

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

/** Waits until the map's accessible name says the player is in `room`, and returns that name. */
async function mapSaysHere(page: Page, room: string): Promise<string> {
  await page.waitForFunction(
    (expected) =>
      (document.querySelector('#map')?.getAttribute('aria-label') ?? '').includes(`You are in ${expected}.`),
    room,
    WAIT,
  );
  return (await page.getAttribute('#map', 'aria-label')) ?? '';
}

/**
 * The web client's map panel and one-step quests in Debian's Chromium against the built server, as a newcomer meets
 * them: the map (role img) follows every move, an Accept button takes the elder's offer, and the quest panel follows
 * the quest live up to its Complete button.
 */
describe('web client map and quest panels in Chromium', () => {
  let browser: TestBrowser;
  let server: RunningServer;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
    const port = await freePort();
    const env = {
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: (dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'forge-web-map-'))),
      LOG_LEVEL: 'info',
      BRAIN_SEED_ON_START: '0',
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
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  it('draws the map from the room graph, follows moves, and takes and hands in a quest with buttons', async () => {
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(url);
    await page.fill('#guest-name', 'Mapper');
    await page.click('#guest-play');
    await roomIs(page, 'Village Square');

    const atSquare = await mapSaysHere(page, 'Village Square');
    expect(atSquare).toMatch(/^Map of Thornwick Village\. You are in Village Square\. Exits: north to /);
    expect(atSquare).toContain('east to Market Row (not explored yet)');
    expect(await page.textContent('#map-title')).toBe('Map — Thornwick Village');
    expect(await page.locator('#map rect.here').count()).toBe(1);
    expect(await page.locator('#map rect.unexplored').count()).toBe(4);
    expect(await page.getAttribute('#log', 'aria-live')).toBe('polite');
    await page.waitForFunction(
      () => document.querySelector('#health-text')?.textContent === 'Health 30 of 30.',
      null,
      WAIT,
    );

    await page.click('#exits button[aria-label="Go east"]');
    await roomIs(page, 'Market Row');
    const atMarket = await mapSaysHere(page, 'Market Row');
    expect(atMarket).not.toBe(atSquare);
    expect(atMarket).toContain('west to Village Square,');
    expect(atMarket).toContain('2 rooms explored nearby.');
    expect(await page.locator('#map rect.visited').count()).toBe(1);
    await page.click('#exits button[aria-label="Go west"]');
    await mapSaysHere(page, 'Village Square');

    await command(page, 'talk elder');
    await logShows(page, /Elder Maren has work for you: First Steps\. Type "accept" to take it\./);
    const accept = page.locator('#log button[aria-label="Accept First Steps"]');
    await accept.click();
    await logShows(page, /Quest accepted: First Steps\./);
    expect(await accept.isDisabled()).toBe(true);
    await page.waitForFunction(
      () => /First Steps/.test(document.querySelector('#quests')?.textContent ?? ''),
      null,
      WAIT,
    );
    await screenshot(page, 'game-map');

    await page.click('#exits button[aria-label="Go west"]');
    await roomIs(page, "Brandal's Smithy");
    await command(page, 'talk brandal');
    await page.waitForFunction(
      () => /✓ Talk to Brandal the smith \(1\/1\)/.test(document.querySelector('#quests')?.textContent ?? ''),
      null,
      WAIT,
    );
    for (const [direction, room] of [
      ['east', 'Village Square'],
      ['east', 'Market Row'],
      ['east', 'East Gate'],
    ]) {
      await page.click(`#exits button[aria-label="Go ${direction}"]`);
      await roomIs(page, room);
    }
    await logShows(
      page,
      /All done for First Steps: return to Elder Maren and type "complete" to hand it in\./,
    );
    const complete = page.locator('#quests button[aria-label="Hand in First Steps"]');
    await complete.waitFor(WAIT);
    for (const room of ['Market Row', 'Village Square']) {
      await page.click('#exits button[aria-label="Go west"]');
      await roomIs(page, room);
    }
    await complete.click();
    await logShows(page, /Quest complete: First Steps! Rewards: 10 xp, 5 coins, wooden sword x1\./);
    await page.waitForFunction(
      () => /First Steps — complete/.test(document.querySelector('#quests')?.textContent ?? ''),
      null,
      WAIT,
    );
    await context.close();
  });
});
