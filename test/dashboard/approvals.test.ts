// Approvals in the dashboard, in a real Chromium against `crier start --sandbox`: an editor key is
// refused the requireApproval setting and the page says why; the admin key turns it on, and a tenant's
// own setting on the same page; posts created
// through the API wait on the review page with their text, account and time; one is approved and is
// then scheduled, one is rejected with a reason and the posts list says so, one still waits and is
// labelled so and is approved from its own page; the keys page creates a key with a role and lists
// each key's role.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { sandboxApi, SandboxRun } from '../helpers/sandbox.ts';
import { until } from '../helpers/until.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('approvals and key roles in the dashboard', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let page: Page;
  let api: ReturnType<typeof sandboxApi>;
  const inTenDays = new Date(Date.now() + 10 * 86_400_000);
  inTenDays.setSeconds(0, 0);
  const account = () => run.accounts.find((a) => a.network === 'bluesky')!;

  const signIn = async (key: string) => {
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  };
  const createPost = async (content: string) => {
    const created = await api('/v1/posts', run.key, { method: 'POST', body: JSON.stringify({ accounts: [account().id], content, scheduledAt: inTenDays.toISOString() }) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };
  const statusOf = async (id: string) => (await api(`/v1/posts/${id}`, run.key)).body.post.socialAccounts[0].status;

  before(async () => {
    session = await openDashboard('crier-dashboard-approvals', executable!);
    ({ run, page, base, api } = session);
  });
  after(() => session?.close());

  test('an editor key cannot turn approvals on: the page says only an admin key can, and the setting stays off', async () => {
    const editor = await api('/v1/api-keys', run.key, { method: 'POST', body: JSON.stringify({ name: 'an editor', role: 'editor' }) });
    assert.equal(editor.status, 201, JSON.stringify(editor.body));
    await signIn(editor.body.data.key);
    await page.getByRole('link', { name: 'Approvals' }).click();
    const toggle = page.getByRole('checkbox', { name: 'Require approval before publishing' });
    await toggle.click();
    const alert = page.locator('.setting [role="alert"]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /^Only an admin key can change this setting\. This API key's role is editor; PATCH \/v1\/settings needs a key with the role admin/);
    assert.equal(await toggle.isChecked(), false, 'the box shows the setting as it stands');
    await screenshots(page, 'approvals-forbidden');
    assert.equal((await api('/v1/settings', run.key)).body.data.requireApproval, false);
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  test('the admin key turns approvals on; posts created through the API wait on the review page with their text, account and time', async () => {
    await signIn(run.key);
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('No post is waiting for approval.').waitFor();
    await page.getByRole('checkbox', { name: 'Require approval before publishing' }).check();
    await page.getByText('On: every post created').waitFor();
    assert.equal((await api('/v1/settings', run.key)).body.data.requireApproval, true);

    for (const content of ['Approve me', 'Reject me', 'Leave me waiting']) await createPost(content);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const card = (content: string) => page.locator('.waiting-post', { hasText: content });
    await card('Leave me waiting').waitFor();
    const shown = await page.evaluate((iso) => new Date(iso).toLocaleString(), inTenDays.toISOString());
    const text = await card('Approve me').innerText();
    assert.ok(text.includes(`to publish at ${shown}`), text);
    assert.ok(text.includes(`@${account().username}`), text);
    assert.equal(await page.locator('.waiting-post').count(), 3);
    await page.getByText('3 posts wait, oldest first.').waitFor();
    await screenshots(page, 'approvals');
  });

  test("a tenant's own approval is listed with the tenants and changed on the page", async () => {
    const set = await api('/v1/tenant-settings/acme', run.key, { method: 'PATCH', body: JSON.stringify({ requireApproval: false }) });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await page.reload();
    const box = page.getByRole('checkbox', { name: 'Tenant acme requires approval' });
    await box.waitFor();
    assert.equal(await box.isChecked(), false);
    await box.check();
    await until(async () => ((await api('/v1/tenant-settings/acme', run.key)).body.data.requireApproval === true ? true : undefined), 10_000, 'the tenant to require approval');
    assert.equal(await page.getByRole('checkbox', { name: 'Tenant acme requires approval' }).isChecked(), true, 'the box shows the stored setting');
  });

  test('approving queues the post at its time; rejecting with a reason makes it rejected for good', async () => {
    const approved = await page.locator('.waiting-post', { hasText: 'Approve me' }).getByRole('link').getAttribute('href');
    const rejected = await page.locator('.waiting-post', { hasText: 'Reject me' }).getByRole('link').getAttribute('href');
    await page.getByRole('button', { name: 'Approve “Approve me”' }).click();
    await page.getByRole('status').getByText(/^Approved: queued for /).waitFor();
    await page.locator('.waiting-post', { hasText: 'Approve me' }).waitFor({ state: 'detached' });
    assert.equal(await statusOf(approved!.split('/').pop()!), 'pending');

    await page.getByRole('button', { name: 'Reject “Reject me”…' }).click();
    await page.getByLabel(/^Reason/).fill('Off brand');
    await page.getByRole('button', { name: 'Reject the post' }).click();
    await page.getByRole('status').getByText('Rejected: it will not be published.').waitFor();
    await page.locator('.waiting-post', { hasText: 'Reject me' }).waitFor({ state: 'detached' });
    assert.equal(await statusOf(rejected!.split('/').pop()!), 'rejected');
    assert.equal(await page.locator('.waiting-post').count(), 1, 'the third still waits');

    // The approved post's page: queued at its time, no decision left to make.
    await page.goto(`${base}/${approved}`);
    const destination = page.locator('.destination', { hasText: `@${account().username}` });
    await destination.locator('.status-pending').waitFor();
    assert.match(await destination.innerText(), /scheduled for /);
    assert.equal(await page.getByRole('button', { name: 'Approve this post' }).count(), 0);
  });

  test('the posts list labels a rejected post and one waiting for approval in words', async () => {
    await page.goto(`${base}/#/posts`);
    const row = (content: string) => page.locator('.post-row', { hasText: content });
    await row('Reject me').locator('.status-rejected').waitFor();
    assert.match(await row('Reject me').locator('.destination').innerText(), /rejected\s+an approver rejected the post \(“Off brand”\): it will not be published/);
    assert.match(await row('Leave me waiting').locator('.status-pending_approval').innerText(), /waiting for approval/);
    assert.match(await row('Leave me waiting').locator('.destination').innerText(), /publishes only once approved/);
    await screenshots(page, 'posts-approval');

    // The waiting post's own page offers the decision too.
    await row('Leave me waiting').getByRole('link', { name: 'Leave me waiting' }).click();
    await page.getByRole('heading', { name: 'Approval' }).waitFor();
    const destination = page.locator('.destination', { hasText: `@${account().username}` });
    await destination.locator('.status-pending_approval').waitFor();
    assert.match(await page.locator('h1 + p.muted').innerText(), /· waiting for approval$/);
    await page.getByRole('button', { name: 'Approve this post' }).click();
    await destination.locator('.status-pending').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve this post' }).count(), 0, 'no decision left to make');
    assert.equal(await statusOf(decodeURIComponent(page.url().split('#/posts/')[1]!)), 'pending');
  });

  test('API keys: a key is created with a role, and each key\'s role is listed', async () => {
    await page.goto(`${base}/#/keys`);
    await page.getByLabel('Name').fill('review desk');
    await page.getByLabel('Role').selectOption('approver');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const key = await page.getByTestId('secret').innerText();
    await page.getByRole('button', { name: 'I stored it' }).click();
    const row = page.locator('tr.api-key', { hasText: 'review desk' });
    assert.equal(await row.locator('.role').innerText(), 'approver');
    assert.equal(await page.locator('tr.api-key', { hasText: 'an editor' }).locator('.role').innerText(), 'editor');
    await screenshots(page, 'keys-roles');
    // The key shown is an approver's: it may decide, not write.
    const refused = await api('/v1/posts', key, { method: 'POST', body: JSON.stringify({ accounts: [account().id], content: 'by an approver' }) });
    assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden_role']);
  });

  test('no script error on any page', () => {
    assert.deepEqual(session.pageErrors, []);
  });
});
