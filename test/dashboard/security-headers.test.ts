// The dashboard holds an API key: its page and files are served with a Content-Security-Policy (only
// Crier's own scripts, the import map by its hash), never framed, never sniffed as another type. And
// the policy lets the dashboard work: in a real Chromium the page signs in and lists posts without a
// single violation (each would be a console error).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { chromiumPath, collectPageErrors, launchChromium } from './browser.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer({ PUBLIC_BASE_URL: 'https://crier.example.com' });
  org = await server.createOrg();
});
after(() => server.close());

const DASHBOARD_PATHS = ['/', '/dashboard/app.js', '/dashboard/style.css', '/dashboard/networks.js', '/dashboard/vendor/preact.mjs', '/dashboard/no-such-file.js'];

/** The policy's directives by name. */
const directives = (policy: string) => new Map(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe('the headers', () => {
  test('every dashboard answer: CSP, no framing, nosniff, no referrer', async () => {
    for (const path of DASHBOARD_PATHS) {
      const res = await server.request('GET', path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
      const policy = directives(res.headers.get('content-security-policy') ?? '');
      assert.deepEqual(policy.get('default-src'), ["'none'"], path);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], path);
      assert.deepEqual(policy.get('base-uri'), ["'none'"], path);
      assert.deepEqual(policy.get('style-src'), ["'self'"], path);
      assert.deepEqual(policy.get('connect-src'), ["'self'", 'https://crier.example.com'], `${path}: upload URLs are on PUBLIC_BASE_URL`);
    }
  });

  test("scripts: Crier's own files and the page's import map by its hash; nothing inline else, no eval", async () => {
    const html = await readFile(new URL('../../src/dashboard/web/index.html', import.meta.url), 'utf8');
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = `'sha256-${createHash('sha256').update(importMap).digest('base64')}'`;
    const policy = directives((await server.request('GET', '/')).headers.get('content-security-policy')!);
    assert.deepEqual(policy.get('script-src'), ["'self'", hash]);
  });

  test('the API keeps its own answers (no page policy on JSON)', async () => {
    const res = await server.request('GET', '/v1/posts', { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), null);
  });
});

const executable = chromiumPath();
describe('the dashboard under its policy, in Chromium', { skip: executable ? false : 'no Chromium installed', timeout: 60_000 }, () => {
  test('the page loads its modules, signs in and lists posts with no violation reported', async () => {
    await server.addAccount(org, 'bluesky', 'csp_account');
    const browser = await launchChromium(executable!);
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      const errors = collectPageErrors(page);
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => void violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(t: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const res = await page.goto(`${server.url}/`);
      assert.ok(res?.headers()['content-security-policy']);
      await page.getByLabel('API key').fill(org.key);
      await page.getByLabel('API key').press('Enter');
      await page.getByRole('heading', { name: 'Posts' }).waitFor();
      await page.goto(`${server.url}/#/compose`);
      await page.getByRole('heading', { name: 'New post' }).waitFor();
      await page.goto(`${server.url}/#/accounts`);
      // The badge's colour is the one style the page sets itself (through the CSSOM): still applied.
      const badge = page.locator('.network-icon').first();
      await badge.waitFor();
      assert.match(await badge.evaluate((el) => getComputedStyle(el).getPropertyValue('--hue')), /\d/);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(violations, []);
      assert.deepEqual(errors, []);
      // The key's page cannot be framed by another site.
      const framed = await browser.newPage();
      const blocked: string[] = [];
      framed.on('console', (m) => blocked.push(m.text()));
      await framed.setContent(`<iframe src="${server.url}/"></iframe>`);
      await framed.waitForTimeout(500);
      const frameText = await framed.frames()[1]?.evaluate(() => document.body?.innerText ?? '').catch(() => '');
      assert.ok(!/API key/.test(frameText ?? ''), 'the page does not render inside a frame');
    } finally {
      await browser.close();
    }
  });
});
