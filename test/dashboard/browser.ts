// The real browser the dashboard tests drive: Debian's `chromium` (or CHROMIUM_PATH) through
// playwright-core. Screenshots go to tmp/ at the repository's root, which git ignores.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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
