// The real browser the dashboard tests drive: Debian's `chromium` (or CHROMIUM_PATH) through
// playwright-core. Screenshots go to tmp/ at the repository's root, which git ignores.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../../src/db/embedded.ts';
import { runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../tmp/dashboard-screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** The installed Chromium, or undefined when there is none (the tests then skip, saying so). */
export const chromiumPath = (): string | undefined => CANDIDATES.find((file) => existsSync(file));

export function launchChromium(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * The page at desktop and phone widths, full length, as `<name>-desktop.png` and `<name>-phone.png`;
 * fails when the page is wider than the phone's screen (it would scroll sideways).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const [width, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= size.width, `${name} is ${scrollWidth} px wide at ${width} width (${size.width} px)`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Fails the test on any error the page's scripts throw or log. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) errors.push(message.text()); });
  return errors;
}

export interface DashboardSession {
  run: SandboxRun;
  browser: Browser;
  page: Page;
  /** Where Crier (and its dashboard) listens. */
  base: string;
  api: ReturnType<typeof sandboxApi>;
  /** What the page's scripts threw or logged as errors (collectPageErrors). */
  pageErrors: string[];
  /** Closes the browser, stops the sandbox and removes its data dir. */
  close(): Promise<void>;
}

/**
 * `crier start --sandbox` in a data dir of its own and a Chromium page at desktop width; dialogs
 * (removing, revoking, deleting ask first) are answered yes.
 */
export async function openDashboard(name: string, executable: string): Promise<DashboardSession> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${name}-`));
  const port = String(await freePort());
  const stops: (() => unknown)[] = [];
  // The public URL is the address Crier listens on: `localhost` may resolve to ::1, where nothing
  // listens, and the sandbox's webhook inbox is accepted at exactly <PUBLIC_BASE_URL>/sandbox/webhook-inbox.
  const env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: port, HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
  const [run, browser] = await Promise.all([runSandbox({ after: (fn) => stops.push(fn) }, env), launchChromium(executable)]);
  const page = await browser.newPage({ viewport: DESKTOP });
  page.setDefaultTimeout(15_000);
  const pageErrors = collectPageErrors(page);
  page.on('dialog', (dialog) => dialog.accept());
  return {
    run, browser, page, pageErrors,
    base: `http://127.0.0.1:${run.port}`,
    api: sandboxApi(run.port),
    async close() {
      await browser.close();
      for (const stop of stops) await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
