import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** The flags a root sandbox needs, and none of Chromium's own network chatter. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, installed with apt-get when absent (as the nginx test does for nginx). */
export function ensureChromium(): string {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  const aptGet = (...args: string[]) =>
    execFileSync('apt-get', args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
    });
  try {
    aptGet('install', '-y', '-q', 'chromium');
  } catch {
    aptGet('update', '-q');
    aptGet('install', '-y', '-q', 'chromium');
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error('chromium is not installed and apt-get could not install it');
  return CHROMIUM;
}

/** A headless Chromium; playwright gives every launch a fresh temporary user-data-dir and removes it on close. */
export interface TestBrowser {
  browser: Browser;
  /** A new isolated context (its own storage) with a phone-or-desktop viewport. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** Launches Chromium through playwright-core with the root-sandbox flags. */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: ensureChromium(), headless: true, args: FLAGS });
  return {
    browser,
    context: (viewport = { width: 1100, height: 800 }) => browser.newContext({ viewport }),
    close: () => browser.close(),
  };
}

/**
 * Where the browser tests put screenshots of the main screens: the committed docs/screenshots when
 * UPDATE_SCREENSHOTS=1 (to refresh the pictures the READMEs show), otherwise a temporary folder, so a test run never
 * changes the checkout.
 */
export const SCREENSHOT_DIR =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? path.resolve(__dirname, '../../docs/screenshots')
    : path.join(os.tmpdir(), 'forge-screenshots');

/** Saves a PNG of `page` as <SCREENSHOT_DIR>/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await fs.promises.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
