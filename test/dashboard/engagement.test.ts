// A post's page after publishing, in a real headless Chromium against `crier start --sandbox`: a text
// post published to X, Bluesky and Google Business Profile shows each destination's figures (a figure
// a network does not give as a dash saying so, never 0; Google's "no figures" reason), the replies of
// X and Bluesky read from the emulated networks (Google's "no comments" reason instead), a reply sent
// through the form and an answer to it nested under it, then "Delete from networks" and each
// account's outcome; a TikTok photo post (an inbox draft) says why it has no figures, no comments and
// cannot be deleted through TikTok's API; a post to Telegram and X edited on the networks (Telegram
// edits, X cannot). One Crier and one browser for the file; screenshots at desktop and phone widths.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { makeJpeg } from '../helpers/media.ts';
import { waitForSettledPost, type sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('the dashboard after publishing: analytics, replies, delete from networks', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];
  let api: ReturnType<typeof sandboxApi>;
  let postId: string;
  /** A photo post to TikTok alone, published in before() (TikTok's emulated processing takes a while). */
  let tiktokPost: Promise<string>;
  const accountOf = (network: string) => run.accounts.find((a) => a.network === network)!;
  /** A destination's box of replies on the page. */
  const repliesOf = (username: string): Locator => page.locator('.replies-destination', { hasText: `@${username}` });
  const analyticsRow = (username: string): Locator => page.locator('tr.analytics-row', { hasText: `@${username}` });
  const repliesFromApi = async (network: string, username: string) => {
    const answer = await api(`/v1/posts/${postId}/replies?network=${network}&username=${encodeURIComponent(username)}&include_replies=true`, run.key);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data as any[];
  };

  before(async () => {
    session = await openDashboard('crier-dashboard-engagement', executable!);
    ({ run, browser, page, base, api, pageErrors } = session);
    tiktokPost = publishToTiktok();
    tiktokPost.catch(() => {}); // awaited (and failing) in its test, not an unhandled rejection meanwhile
    const created = await api('/v1/posts', run.key, {
      method: 'POST',
      body: JSON.stringify({ accounts: ['x', 'bluesky', 'google_business'].map((n) => accountOf(n).username), containers: [{ content: 'Dashboard engagement' }] }),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    postId = created.body.post.id;
    const post = await waitForSettledPost(api, run.key, postId, 30);
    assert.deepEqual(post.socialAccounts.map((d: any) => [d.network, d.status]), [['x', 'published'], ['bluesky', 'published'], ['google_business', 'published']]);
  });
  async function publishToTiktok(): Promise<string> {
    const upload = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
    const put = await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('1080x1920')) });
    assert.ok(put.ok, `PUT ${put.status}`);
    const photo = (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' })).body.data;
    const created = await api('/v1/posts', run.key, {
      method: 'POST',
      body: JSON.stringify({ accounts: [accountOf('tiktok').username], containers: [{ content: 'Dashboard photo', media: [{ url: photo.url, filename: 'photo.jpg' }] }] }),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await waitForSettledPost(api, run.key, created.body.post.id, 90);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    return post.id;
  }

  after(() => session?.close());

  test('signed in, the post\'s page shows its figures per destination, a missing one as a dash saying who does not give it', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(run.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    await page.goto(`${base}/#/posts/${postId}`);
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();

    const x = analyticsRow(accountOf('x').username);
    const bluesky = analyticsRow(accountOf('bluesky').username);
    await x.waitFor();
    await bluesky.waitFor();
    const figure = (row: Locator, name: string) => row.locator(`td[data-figure="${name}"]`).innerText();
    // The sandbox's X gives every figure but reach; its Bluesky no views nor impressions.
    assert.equal(await figure(x, 'likes'), '0');
    assert.equal(await figure(x, 'views'), '0', 'a figure the network gave as 0 is 0');
    assert.match(await figure(x, 'reach'), /^—\s*not given by X$/);
    assert.equal(await figure(bluesky, 'likes'), '0');
    assert.match(await figure(bluesky, 'views'), /^—\s*not given by Bluesky$/);
    assert.match(await figure(bluesky, 'impressions'), /^—\s*not given by Bluesky$/);
    assert.match(await bluesky.innerText(), /repostCount/, "the network's own figures");
    // Google Business Profile gives no figures of a post: the API's reason, not a row of zeros.
    const google = analyticsRow(accountOf('google_business').username);
    assert.match(await google.innerText(), /gives no figures of a post/);
    assert.equal(await google.locator('td[data-figure]').count(), 0);
    const totals = page.locator('tr.analytics-total');
    assert.equal(await totals.locator('td[data-figure="likes"]').innerText(), '0');
    assert.match(await totals.locator('td[data-figure="reach"]').innerText(), /^—\s*given by none$/);
  });

  test('replies per destination: a network without comments says why; a reply sent through the form appears, read again from the network', async () => {
    const google = repliesOf(accountOf('google_business').username);
    await google.locator('.no-comments').waitFor();
    assert.match(await google.innerText(), /Google Business Profile posts have no comments an app can read or write/);
    assert.equal(await google.getByRole('button', { name: /Send/ }).count(), 0, 'no form where nothing can be sent');

    const xAccount = accountOf('x');
    const x = repliesOf(xAccount.username);
    await x.getByText('No replies yet.').waitFor();
    await x.getByLabel(`Reply to the post as @${xAccount.username}`).fill('Thanks for reading, from the dashboard');
    await x.getByRole('button', { name: 'Send the reply' }).click();
    const first = x.locator('li.reply', { hasText: 'Thanks for reading, from the dashboard' });
    await first.waitFor();
    await x.getByRole('status').getByText('Sent.').waitFor();
    assert.match(await first.locator('.reply-head').innerText(), new RegExp(`${xAccount.username}[\\s\\S]*·[\\s\\S]*0 likes`));
    assert.equal(await x.getByLabel(`Reply to the post as @${xAccount.username}`).inputValue(), '', 'the form is empty again');

    const onX = await repliesFromApi('x', xAccount.username);
    assert.deepEqual(onX.map((r) => r.text), ['Thanks for reading, from the dashboard'], 'the network got it');
    // An answer sent changes the comment count: the figures were read again.
    await page.waitForFunction((name) => {
      const row = [...document.querySelectorAll('tr.analytics-row')].find((r) => (r as HTMLElement).innerText.includes(`@${name}`));
      return row?.querySelector('td[data-figure="comments"]')?.textContent?.trim() === '1';
    }, xAccount.username);
  });

  test('answering a comment: the answer is nested under it, on the page and on the network', async () => {
    const xAccount = accountOf('x');
    const x = repliesOf(xAccount.username);
    const first = x.locator('li.reply', { hasText: 'Thanks for reading, from the dashboard' }).first();
    await first.getByRole('button', { name: /^Answer/ }).click();
    await first.getByRole('form', { name: /^Answer/ }).getByRole('textbox').fill('And an answer to it');
    await first.getByRole('button', { name: 'Send the answer' }).click();
    const nested = first.locator('ul.replies.nested > li.reply', { hasText: 'And an answer to it' });
    await nested.waitFor();
    assert.equal(await x.locator('ul.replies:not(.nested) > li.reply').count(), 1, 'still one top-level comment');
    const onX = await repliesFromApi('x', xAccount.username);
    assert.deepEqual(onX.map((r) => [r.text, r.replies.map((a: any) => a.text)]), [['Thanks for reading, from the dashboard', ['And an answer to it']]]);

    // Bluesky, the other network with comments: a reply there is its own, apart from X's.
    const blueskyAccount = accountOf('bluesky');
    const bluesky = repliesOf(blueskyAccount.username);
    await bluesky.getByLabel(`Reply to the post as @${blueskyAccount.username}`).fill('A skeet reply');
    await bluesky.getByRole('button', { name: 'Send the reply' }).click();
    await bluesky.locator('li.reply', { hasText: 'A skeet reply' }).waitFor();
    assert.equal(await x.locator('li.reply', { hasText: 'A skeet reply' }).count(), 0);
    assert.deepEqual((await repliesFromApi('bluesky', blueskyAccount.username)).map((r) => r.text), ['A skeet reply']);
    await screenshots(page, 'post-engagement');
  });

  test('on a sandbox account, someone else comments through the sandbox form: the comment shows by its author', async () => {
    const xAccount = accountOf('x');
    const x = repliesOf(xAccount.username);
    await x.getByText('Sandbox: someone comments').click();
    const form = x.getByRole('form', { name: /^Someone comments on/ });
    await form.getByLabel('Who comments').fill('dash_fan');
    await form.getByLabel('Their comment').fill('Great post from a fan');
    await form.getByRole('button', { name: 'Add the comment' }).click();
    const comment = x.locator('ul.replies:not(.nested) > li.reply', { hasText: 'Great post from a fan' });
    await comment.waitFor();
    assert.match(await comment.locator('.reply-author').innerText(), /dash_fan/);
    assert.equal(await form.getByLabel('Their comment').inputValue(), '', 'the form is empty again');
    const onX = await repliesFromApi('x', xAccount.username);
    assert.deepEqual(onX.filter((r) => r.text.endsWith('Great post from a fan')).map((r) => r.author_username), ['dash_fan']);
    // Google Business Profile has no comments: no sandbox form there either.
    assert.equal(await repliesOf(accountOf('google_business').username).getByText('Sandbox: someone comments').count(), 0);
    await screenshots(page, 'post-sandbox-comment');
  });

  test('delete from networks: each account\'s outcome, and the destinations turn deleted', async () => {
    await page.getByRole('button', { name: 'Delete from networks' }).click();
    const outcomes = page.locator('.remote-outcomes');
    await outcomes.waitFor();
    for (const network of ['x', 'bluesky', 'google_business']) {
      const row = outcomes.locator('.remote-outcome', { hasText: `@${accountOf(network).username}` });
      assert.match(await row.innerText(), /deleted/, network);
    }
    // The page follows: each destination deleted, no figures nor replies left to read.
    for (const network of ['x', 'bluesky', 'google_business']) {
      await page.locator('.destinations .destination', { hasText: `@${accountOf(network).username}` }).locator('.status-deleted').waitFor();
    }
    await page.getByRole('heading', { name: 'Analytics' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('heading', { name: 'Replies' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Delete from networks' }).count(), 0);
    await page.getByText('What each network answered').waitFor();
    await screenshots(page, 'post-engagement-deleted');

    const post = (await api(`/v1/posts/${postId}`, run.key)).body.post;
    assert.deepEqual(post.socialAccounts.map((d: any) => [d.network, d.status]), [['x', 'deleted'], ['bluesky', 'deleted'], ['google_business', 'deleted']]);
    const replies = await api(`/v1/posts/${postId}/replies?network=x`, run.key);
    assert.equal(replies.status, 404, 'nothing left to read replies from');
  });

  test('TikTok: why there are no figures and no comments, and "not supported" with its reason when deleting', async () => {
    const id = await tiktokPost;
    const username = accountOf('tiktok').username;
    await page.goto(`${base}/#/posts/${id}`);
    const row = analyticsRow(username);
    await row.waitFor();
    assert.equal(await page.locator('.remote-outcomes').count(), 0, 'nothing said yet about this post (the previous post\'s outcomes are gone)');
    // The sandbox's TikTok leaves a photo post as an inbox draft: a publish_id, no public post to count.
    assert.match(await row.innerText(), /TikTok gives no figures for it/);
    const replies = repliesOf(username);
    await replies.locator('.no-comments').waitFor();
    assert.match(await replies.innerText(), /No comments here: TikTok posts have no comments an app can read or write through TikTok's API/);

    await page.getByRole('button', { name: 'Delete from networks' }).click();
    const outcome = page.locator('.remote-outcome', { hasText: `@${username}` });
    await outcome.waitFor();
    assert.match(await outcome.innerText(), /not supported[\s\S]*Why: TikTok's API cannot delete a post: delete it in TikTok itself/);
    // Still on TikTok: still published, the button still there.
    assert.equal((await api(`/v1/posts/${id}`, run.key)).body.post.socialAccounts[0].status, 'published');
    await page.locator('.destinations .destination', { hasText: `@${username}` }).locator('.status-published').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete from networks' }).count(), 1);
  });

  test('edit on networks: Telegram takes the new text, X says it cannot; a text Telegram would refuse is shown and changes nothing', async () => {
    const created = await api('/v1/posts', run.key, {
      method: 'POST',
      body: JSON.stringify({ accounts: ['telegram', 'x'].map((n) => accountOf(n).username), containers: [{ content: 'Doors at 8' }] }),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.post.id;
    const settled = await waitForSettledPost(api, run.key, id, 30);
    assert.deepEqual(settled.socialAccounts.map((d: any) => d.status), ['published', 'published']);
    await page.goto(`${base}/#/posts/${id}`);
    // This post's page, not the previous one's still on screen: its Telegram destination is shown.
    await page.locator('.destinations .destination', { hasText: `@${accountOf('telegram').username}` }).waitFor();
    const form = page.getByRole('form', { name: 'Edit on networks' });
    assert.equal(await form.getByLabel('Post').inputValue(), 'Doors at 8');
    await form.getByLabel('Post').fill('x'.repeat(5000));
    await form.getByRole('button', { name: 'Save on networks' }).click();
    await form.locator('.field-errors', { hasText: /Telegram \(@crier_sandbox\): .*4,?096/ }).waitFor();
    assert.equal((await api(`/v1/posts/${id}`, run.key)).body.post.socialAccounts[0].editedAt, null, 'nothing changed');

    await form.getByLabel('Post').fill('Doors at 8:30');
    await form.getByRole('button', { name: 'Save on networks' }).click();
    const telegram = page.locator('.remote-outcome', { hasText: `@${accountOf('telegram').username}` });
    await telegram.waitFor();
    assert.match(await telegram.innerText(), /edited/);
    assert.match(await page.locator('.remote-outcome', { hasText: `@${accountOf('x').username}` }).innerText(), /not supported[\s\S]*X's API cannot edit a post/);
    await page.locator('.destinations .destination', { hasText: `@${accountOf('telegram').username}` }).locator('.edited', { hasText: 'part 1: Doors at 8:30' }).waitFor();
    await screenshots(page, 'post-engagement-edited');
    const post = (await api(`/v1/posts/${id}`, run.key)).body.post;
    assert.deepEqual(post.socialAccounts.map((d: any) => d.editedContainers), [[{ position: 0, content: 'Doors at 8:30' }], null]);
  });

  test('no script error on the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
