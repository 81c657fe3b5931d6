// An account's state in the dashboard, in a real Chromium: an X account whose token the network
// refuses is disconnected by the publishing engine, and the accounts page says so with why (the
// error that disconnected it, as the API's disconnectedReason gives it) and since when, beside the
// account still active. Not the sandbox: its networks cannot refuse a token, the test's X emulator can.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { DESKTOP, chromiumPath, collectPageErrors, launchChromium } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('an account disconnected by a refused token, in the dashboard', { skip, timeout: 120_000 }, () => {
  let stack: PublishingStack;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];

  before(async () => {
    [stack, browser] = await Promise.all([startPublishingStack(), launchChromium(executable!)]);
    org = await stack.server.createOrg();
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    pageErrors = collectPageErrors(page);
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('the accounts page shows the disconnected account with why and since when, the other one active', async () => {
    const expired = await stack.addXAccount(org);
    const healthy = await stack.addXAccount(org);
    stack.x.expireToken(expired.token);
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [expired.id], content: 'into a refused token' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await stack.waitForPost(org, created.body.post.id);
    const error: string = post.socialAccounts[0].error;
    assert.match(error, /^x: the access token was refused/);

    await page.goto(`${stack.server.url}/`);
    await page.getByLabel('API key').fill(org.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await page.getByRole('link', { name: 'Accounts' }).click();
    const row = page.locator('tr.account-row', { hasText: `@${expired.username}` });
    await row.getByText('disconnected', { exact: false }).first().waitFor();
    assert.equal(await row.locator('.reason').innerText(), `Why: ${error}`);
    assert.match(await row.innerText(), /since .*; reconnect it to publish again/);
    assert.ok(await row.getByRole('button', { name: 'Reconnect' }).isVisible());
    const other = page.locator('tr.account-row', { hasText: `@${healthy.username}` });
    assert.match(await other.innerText(), /✓\s*active/);
    assert.equal(await other.locator('.reason').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
