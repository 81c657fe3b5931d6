// The dashboard in a real headless Chromium against `crier start --sandbox` (a real process, every
// network emulated): sign in with a key (by keyboard); compose with the API's dry run flagging fields
// as they are typed and a board picked from the account's boards; a thread with an image to two
// accounts turning published while a third fails with its reason, one post for a double click; the
// posts list; schedule, reschedule, cancel; a webhook created, tested, redelivered, edited, disabled;
// a key created and revoked; an account connected through the OAuth emulator with a page pick and one
// with an app password. One Crier and one browser for the file; screenshots at desktop and phone widths.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeJpeg } from '../helpers/media.ts';
import type { sandboxApi, SandboxRun } from '../helpers/sandbox.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('the dashboard in a real browser', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];
  let api: ReturnType<typeof sandboxApi>;
  let postId: string;
  /** An empty compose form (through another page: the same address would keep the form as it is). */
  const freshCompose = async () => {
    await page.goto(`${base}/#/posts`);
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await page.goto(`${base}/#/compose`);
    await page.getByRole('heading', { name: 'New post' }).waitFor();
  };
  const accountOf = (network: string) => run.accounts.find((a) => a.network === network)!;

  before(async () => {
    session = await openDashboard('crier-dashboard', executable!);
    ({ run, browser, page, base, api, pageErrors } = session);
  });
  after(() => session?.close());

  test('a wrong key is refused; the sandbox key signs in and lands on the posts', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill('crier_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /key/i);
    // By keyboard alone: the key, Enter, then the navigation by Tab and Enter.
    await page.getByLabel('API key').fill(run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await page.getByRole('link', { name: 'Compose' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'focus moves to the new page');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('crier.apiKey')), run.key, 'the key is kept in the tab session');
    assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing is kept beyond the session');
  });

  test('compose: the dry run flags a too-long text under its field as it is typed', async () => {
    await freshCompose();
    await page.getByRole('checkbox', { name: `@${accountOf('threads').username}` }).check();
    await page.locator('#content-0').fill('a'.repeat(501));
    const hint = page.locator('.container .field-errors');
    await hint.waitFor();
    assert.match(await hint.innerText(), /501 characters long but Threads allows at most 500/);
    await page.locator('#content-0').fill('short enough');
    await hint.waitFor({ state: 'detached' });
  });

  test('compose: a required option is flagged in its network block, and a board is picked from the account\'s boards', async () => {
    await freshCompose();
    await page.getByRole('checkbox', { name: `@${accountOf('pinterest').username}` }).check();
    await page.locator('#content-0').fill('A pin');
    const board = page.locator('select[name="pinterest.board_id"]');
    const missing = page.locator('.network-block .field-errors', { hasText: 'board_id' });
    await missing.waitFor();
    await board.locator('option', { hasText: 'Sandbox ideas' }).waitFor({ state: 'attached' });
    await board.selectOption({ label: 'Sandbox ideas' });
    await missing.waitFor({ state: 'detached' });
    assert.equal(await board.inputValue(), '5100000000000101', 'the board id the account\'s listing answered');
  });

  test('compose: a nested option is written as JSON, and the API\'s messages about its parts appear under it', async () => {
    await freshCompose();
    await page.getByRole('checkbox', { name: `@${accountOf('google_business').username}` }).check();
    await page.locator('#content-0').fill('An event');
    await page.locator('summary', { hasText: 'Google Business Profile options' }).click();
    await page.locator('select[name="google_business.topicType"]').selectOption('EVENT');
    const event = page.locator('textarea[name="google_business.event"]');
    await event.fill('{"title": "Open day"');
    await page.getByText('Not valid JSON yet').waitFor();
    await event.fill('{"title": "Open day"}');
    const option = page.locator('.option', { has: event });
    await option.locator('.field-errors li', { hasText: 'is required' }).first().waitFor();
    assert.equal(await page.getByText('Not valid JSON yet').count(), 0);
  });

  test('compose a thread with an image: YouTube is refused before anything is stored, the dry run warns of X, two destinations turn published and X fails with that reason; a double click makes one post', async () => {
    const [x, threads, bluesky, youtube] = ['x', 'threads', 'bluesky', 'youtube'].map(accountOf);
    await freshCompose();
    for (const account of [x, threads, bluesky, youtube]) await page.getByRole('checkbox', { name: `@${account!.username.replace(/^@/, '')}` }).check();
    await page.locator('#content-0').fill('Dashboard thread, part one');
    await page.getByLabel('Attach an image or a video').first().setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg('640x480') });
    await page.getByText('uploaded').waitFor();
    await page.getByRole('button', { name: 'Add a reply to the thread' }).click();
    // 285 characters: within Threads' 500 and Bluesky's 300, over X's 280 (judged when publishing).
    const reply = `and its reply ${'x'.repeat(271)}`;
    await page.locator('#content-1').fill(reply);
    // An image can never publish to YouTube: the create would be a 400 naming it, and the page says so.
    await page.locator('.compose [role="status"] .field-errors', { hasText: /youtube: .*video/i }).waitFor();
    await page.getByRole('checkbox', { name: `@${youtube!.username.replace(/^@/, '')}` }).uncheck();
    const verdicts = page.getByRole('list', { name: 'Dry run' });
    await verdicts.waitFor();
    await verdicts.locator('li', { hasText: `@${x!.username}` }).getByText(/X allows 280/).waitFor();
    await screenshots(page, 'compose');

    await page.getByRole('button', { name: 'Publish' }).dblclick();
    await page.waitForURL(/#\/posts\/[^/]+$/);
    postId = decodeURIComponent(page.url().split('#/posts/')[1]!);
    const destination = (username: string) => page.locator('.destination', { hasText: `@${username.replace(/^@/, '')}` });
    for (const account of [threads, bluesky]) await destination(account!.username).locator('.status-published').waitFor({ timeout: 30_000 });
    const failed = destination(x!.username);
    await failed.locator('.status-failed').waitFor({ timeout: 30_000 });
    assert.match(await failed.locator('.reason').innerText(), /^Reason: .*X allows 280/);
    // Sandbox accounts publish to the emulators: the post is not on threads.net, so no link leads there.
    await destination(threads!.username).getByText('sandbox: not on the real network').waitFor();
    assert.equal(await destination(threads!.username).getByRole('link').count(), 0);
    // The page's attempts: each destination's last one says how it ended, the failure's error beside it.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('table.attempts tr.attempt')].map((r) => (r as HTMLElement).innerText);
      return rows.filter((r) => /\bpublished\b/.test(r)).length === 2 && rows.some((r) => /\bfailed\b/.test(r));
    }, undefined, { timeout: 15_000 });
    const rows = await page.locator('table.attempts tr.attempt').allInnerTexts();
    assert.ok(rows.some((r) => /\bfailed\b/.test(r) && /X allows 280/.test(r)), rows.join('\n'));
    await screenshots(page, 'post');

    const listed = await api('/v1/posts?limit=100', run.key);
    assert.equal(listed.body.posts.filter((p: any) => p.containers[0].content === 'Dashboard thread, part one').length, 1, 'one post for the double click');
    const stored = (await api(`/v1/posts/${postId}`, run.key)).body.post;
    assert.deepEqual(stored.containers.map((c: any) => [c.content, c.media.length]), [['Dashboard thread, part one', 1], [reply, 0]]);
    assert.deepEqual(stored.socialAccounts.map((d: any) => d.network), ['x', 'threads', 'bluesky'], 'nothing stored for YouTube');
  });

  test('the posts list shows each destination\'s status at a glance, and filters by account', async () => {
    await page.goto(`${base}/#/posts`);
    const row = page.locator('.post-row', { hasText: 'Dashboard thread, part one' });
    await row.locator('.status-failed').waitFor();
    assert.equal(await row.locator('.status-published').count(), 2);
    assert.match(await row.locator('.reason').innerText(), /X allows 280/);
    await screenshots(page, 'posts');
    await page.getByLabel('Account').selectOption(accountOf('reddit').id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No post matches.').waitFor();
  });

  test('a scheduled post: pending with its time, rescheduled, then cancelled', async () => {
    const account = accountOf('bluesky');
    await freshCompose();
    await page.getByRole('checkbox', { name: `@${account.username}` }).check();
    await page.locator('#content-0').fill('Dashboard, later');
    // Within the API's 30-day window; datetime-local fields take local time, as the browser reads it.
    const inDays = (days: number) => page.evaluate((d) => { const t = new Date(Date.now() + d * 86_400_000); t.setSeconds(0, 0); return { local: new Date(t.getTime() - t.getTimezoneOffset() * 60_000).toISOString().slice(0, 16), iso: t.toISOString() }; }, days);
    const [first, second] = [await inDays(10), await inDays(20)];
    await page.getByLabel('Publish at (empty: now)').fill(first.local);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.waitForURL(/#\/posts\/[^/]+$/);
    const id = decodeURIComponent(page.url().split('#/posts/')[1]!);
    const destination = page.locator('.destination', { hasText: `@${account.username}` });
    await destination.locator('.status-pending').waitFor();
    const shown = (iso: string) => page.evaluate((i) => new Date(i).toLocaleString(), iso);
    assert.ok((await destination.innerText()).includes(`scheduled for ${await shown(first.iso)}`));

    await page.getByLabel('Publish at').fill(second.local);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await destination.getByText(`scheduled for ${await shown(second.iso)}`).waitFor();
    assert.equal((await api(`/v1/posts/${id}`, run.key)).body.post.scheduledAt, second.iso);

    await page.getByRole('button', { name: 'Cancel this post' }).click();
    await destination.locator('.status-cancelled').waitFor();
    await page.getByText('nothing was published').waitFor();
    assert.equal((await api(`/v1/posts/${id}`, run.key)).body.post.socialAccounts[0].status, 'cancelled');
  });

  test('webhooks: create one, see its secret once, send a test and see it in the delivery log, redeliver it, edit and disable it', async () => {
    const inbox = `${base}/sandbox/webhook-inbox`;
    await page.goto(`${base}/#/webhooks`);
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Name').fill('dashboard inbox');
    await page.getByLabel('URL').fill(inbox);
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    assert.match(await page.getByTestId('secret').innerText(), /^whsec_/);
    await page.getByRole('button', { name: 'I stored it' }).click();
    assert.equal(await page.getByTestId('secret').count(), 0, 'the secret is gone once stored');

    const hook = page.locator('.webhook', { hasText: 'dashboard inbox' });
    await hook.getByRole('button', { name: 'Send a test' }).click();
    const delivery = hook.locator('tr.delivery', { hasText: 'delivered' });
    // A busy machine can time an attempt out; the log then shows it failed and follows the retry.
    await delivery.first().waitFor({ timeout: 30_000 }).catch(async () => assert.fail(`no delivered test in the log: ${await hook.innerText()}`));
    assert.match(await delivery.first().innerText(), /delivered[\s\S]*200[\s\S]*\d+ ms/);
    await delivery.first().getByRole('button', { name: 'Redeliver' }).click();
    await hook.locator('tr.delivery', { hasText: 'redelivery' }).waitFor({ timeout: 30_000 });
    await screenshots(page, 'webhooks');

    await hook.getByRole('button', { name: 'Edit' }).click();
    await hook.getByLabel('Name').fill('dashboard inbox, renamed');
    await hook.getByRole('checkbox', { name: 'post.error' }).uncheck();
    await hook.getByRole('button', { name: 'Save' }).click();
    await hook.getByText('post.published · signed').waitFor();
    await hook.getByRole('button', { name: 'Disable' }).click();
    await hook.getByText('disabled').waitFor();
    const stored = (await api('/v1/webhooks', run.key)).body.data.find((h: any) => h.name === 'dashboard inbox, renamed');
    assert.deepEqual([stored.enabled, stored.events], [false, ['post.published']]);
  });

  test('API keys: a new key is shown once and works; revoked, the API refuses it', async () => {
    await page.goto(`${base}/#/keys`);
    await page.getByLabel('Name').fill('dashboard key');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const key = await page.getByTestId('secret').innerText();
    assert.match(key, /^crier_/);
    assert.equal((await api('/v1/social-accounts', key)).status, 200, 'the key shown works');
    await page.getByRole('button', { name: 'I stored it' }).click();
    await page.getByText(/requests left in this window|no per-window limit/).waitFor();
    await screenshots(page, 'keys');
    await page.getByRole('button', { name: 'Revoke dashboard key' }).click();
    await page.locator('tr.api-key', { hasText: 'dashboard key' }).getByText('revoked').waitFor();
    assert.equal((await api('/v1/social-accounts', key)).status, 401, 'the revoked key is refused');
  });

  test('accounts: connect through the OAuth emulator picking the page the login grants, with an app password, and an app\'s callback URL', async () => {
    const page2 = accountOf('facebook');
    await api(`/v1/social-accounts/${page2.id}`, run.key, { method: 'DELETE' });
    await page.goto(`${base}/#/accounts`);
    await page.locator('select[name="connect-network"]').selectOption('facebook');
    await page.getByRole('button', { name: 'Connect with the network' }).click();
    await page.getByRole('form', { name: 'Pick what to connect' }).waitFor();
    assert.ok(!page.url().includes('session='), 'the session token leaves the address bar');
    await page.getByRole('checkbox', { name: new RegExp(`@${page2.username}`) }).check();
    await page.getByRole('button', { name: /^Connect 1/ }).click();
    await page.getByText(`Connected: @${page2.username}.`).waitFor();
    await page.locator('tr.account-row', { hasText: `@${page2.username}` }).getByText('active').waitFor();

    // An app-password network: a refused password is said under its field; the right one connects.
    const form = page.getByRole('form', { name: /app password/ });
    await form.getByLabel('Handle').fill(accountOf('bluesky').username);
    await form.getByLabel('App password').fill('wrong-wrong-wrong-wron');
    await form.getByRole('button', { name: 'Connect' }).click();
    await form.locator('.field-errors', { hasText: 'not accepted' }).waitFor();
    await form.getByLabel('App password').fill('sbox-sbox-sbox-sbox'); // the sandbox account's (src/networks/bluesky/sandbox.ts)
    await form.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`Connected: @${accountOf('bluesky').username}.`).waitFor();
    // Registering an app: the callback URL to paste into the network's console, from the API's public URL.
    const register = page.getByRole('form', { name: 'Register a network app' });
    await register.getByLabel('Network').selectOption('linkedin');
    assert.equal(await register.getByTestId('callback-url').innerText(), `${base}/oauth/callback/linkedin`);
    await screenshots(page, 'accounts');
    const accounts = (await api('/v1/social-accounts', run.key)).body.data;
    assert.ok(accounts.some((a: any) => a.username === page2.username && a.isActive === 1), 'connected again through the dashboard');
  });

  test('Crier serves the page and its modules, and nothing else from those paths', async () => {
    const get = (pathname: string) => fetch(`${base}${pathname}`);
    const home = await get('/');
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type')!, /^text\/html/);
    assert.match(await home.text(), /<script type="importmap">/);
    for (const file of ['/dashboard/app.js', '/dashboard/networks.js', '/dashboard/vendor/preact.mjs', '/dashboard/vendor/preact-hooks.mjs', '/dashboard/vendor/htm-preact.mjs', '/dashboard/vendor/htm.mjs']) {
      const response = await get(file);
      assert.equal(response.status, 200, file);
      assert.match(response.headers.get('content-type')!, /^text\/javascript/, file);
    }
    for (const file of ['/dashboard/plugin.ts', '/dashboard/..%2Fplugin.ts', '/dashboard/vendor/..%2F..%2Fpackage.json', '/dashboard/vendor/preact.js']) {
      const response = await get(file);
      assert.equal(response.status, 404, file);
      assert.equal((await response.json()).code, 'not_found', file);
    }
  });

  test('no script error on any page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
