// What the dashboard calls things, in a real Chromium (issue 33): each network by its name from the
// registry (LinkedIn, YouTube, TikTok, Google Business Profile — not "Linkedin" made from its id), the
// API's field names in words ("Publish at", not `scheduledAt`), and where a published post is: a link
// to it on the network for a real account, and for a sandbox account (its post is on an emulator) a
// note that it is not on the real network instead of an x.com link to a post that does not exist.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import type { TestAccount, TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { DESKTOP, chromiumPath, collectPageErrors, launchChromium } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('network names, field names and post links in the dashboard', { skip, timeout: 120_000 }, () => {
  let stack: PublishingStack;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];
  let real: TestAccount & { username: string };
  let sandboxed: TestAccount;
  const others: TestAccount[] = [];

  before(async () => {
    [stack, browser] = await Promise.all([startPublishingStack(), launchChromium(executable!)]);
    org = await stack.server.createOrg();
    real = await stack.addXAccount(org);
    const user = stack.x.addUser({ username: 'sandbox_like', accessToken: 'x-token-sandbox-like' });
    sandboxed = await stack.server.addAccount(org, 'x', 'sandbox_like', { networkUniqueId: user.id, accessToken: 'x-token-sandbox-like', sandbox: true });
    // Shown only, never published to: the names of networks whose ids capitalise wrongly.
    for (const network of ['linkedin', 'youtube', 'tiktok', 'google_business'] as const) others.push(await stack.server.addAccount(org, network));
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(15_000);
    pageErrors = collectPageErrors(page);
    await page.goto(`${stack.server.url}/`);
    await page.getByLabel('API key').fill(org.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const label = (id: string) => NETWORK_LIST.find((network) => network.id === id)!.label;

  test('the accounts filter names each network as the registry does', async () => {
    await page.getByLabel('Account').locator('option', { hasText: 'LinkedIn' }).waitFor({ state: 'attached' });
    const options = await page.getByLabel('Account').locator('option').allInnerTexts();
    for (const account of others) assert.ok(options.includes(`${label(account.network)} @${account.username}`), `${account.network} in ${options.join(' | ')}`);
    assert.ok(options.includes('Google Business Profile @' + others[3]!.username));
    assert.deepEqual(options.filter((text) => /^(Linkedin|Youtube|Tiktok|Google business) /.test(text)), []);
  });

  test('the accounts page labels each network\'s badge with its name', async () => {
    await page.getByRole('link', { name: 'Accounts' }).click();
    for (const account of others) {
      const row = page.locator('tr.account-row', { hasText: `@${account.username}` });
      assert.equal(await row.locator('.network-icon').getAttribute('aria-label'), label(account.network));
    }
  });

  test('a published post links to the real account\'s post, and says the sandbox account\'s is not on the real network', async () => {
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [real.id, sandboxed.id], content: 'Where can it be seen?' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await stack.waitForPost(org, created.body.post.id);
    const destinations = new Map(post.socialAccounts.map((d: any) => [d.id, d]));
    await page.goto(`${stack.server.url}/#/posts/${post.id}`);
    const destination = (username: string) => page.locator('.destinations .destination', { hasText: `@${username}` });
    await destination(real.username).locator('.status-published').waitFor();
    await destination(real.username).getByRole('link', { name: 'view on X' }).waitFor();
    assert.equal(await destination(real.username).getByRole('link', { name: 'view on X' }).getAttribute('href'), (destinations.get(real.id) as any).platformPostUrl);

    const sandboxDestination = destination('sandbox_like');
    await sandboxDestination.locator('.sandbox-note').waitFor();
    assert.equal(await sandboxDestination.locator('.sandbox-note').innerText(),
      `sandbox: not on the real network (published on the X emulator as post ${(destinations.get(sandboxed.id) as any).platformPostId})`);
    assert.equal(await sandboxDestination.getByRole('link').count(), 0, 'no link to x.com for a post that is not there');

    await page.goto(`${stack.server.url}/#/posts`);
    const row = page.locator('.post-row', { hasText: 'Where can it be seen?' });
    await row.locator('.sandbox-note').waitFor();
    assert.equal(await row.getByRole('link', { name: 'view on X' }).count(), 1);
  });

  test('an error about a field names it in words, with the API\'s name on hover', async () => {
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [real.id], content: 'Later', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await page.goto(`${stack.server.url}/#/posts/${created.body.post.id}`);
    const tooFar = new Date(Date.now() + 60 * 86_400_000);
    const local = new Date(tooFar.getTime() - tooFar.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Publish at').fill(local);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Publish at: must be at most 30 days in the future/);
    assert.doesNotMatch(await alert.innerText(), /scheduledAt/);
    assert.equal(await alert.locator('.field-name').getAttribute('title'), 'scheduledAt');
  });

  test('no script error on any page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
