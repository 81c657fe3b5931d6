// Queues in the dashboard, in a real Chromium against `crier start --sandbox`: an account's queue is
// created on the page (a zone the API does not know is said under its field first), its next slots
// are listed, all free; a post composed with "next free slot" lands in the first slot, which the
// queue's preview then shows holding it; the queue is edited, then deleted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { sandboxApi, SandboxRun } from '../helpers/sandbox.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('posting queues in the dashboard', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let page: Page;
  let api: ReturnType<typeof sandboxApi>;
  const account = () => run.accounts.find((a) => a.network === 'bluesky')!;
  const who = () => `@${account().username}`;
  const queueOf = async () => (await api(`/v1/queues?social_account_id=${account().id}`, run.key)).body.data[0];
  const shown = (iso: string) => page.evaluate((i) => new Date(i).toLocaleString(), iso);

  before(async () => {
    session = await openDashboard('crier-dashboard-queues', executable!);
    ({ run, page, base, api } = session);
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(() => session?.close());

  test('a queue is created on the page: a zone the API does not know is refused under its field, then its next slots are listed, free', async () => {
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.getByRole('button', { name: `Create a queue for ${who()}` }).click();
    const form = page.getByRole('form', { name: `Queue of ${who()}` });
    await form.getByLabel(/^Time zone/).fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Add a slot' }).click();
    await form.locator('select[name="day-1"]').selectOption('thursday');
    await form.locator('input[name="time-1"]').fill('17:30');
    await form.getByRole('button', { name: 'Create the queue' }).click();
    await form.locator('.field-errors', { hasText: '"Mars/Olympus" is not an IANA time zone name' }).waitFor();
    assert.equal(await queueOf(), undefined, 'nothing stored');

    await form.getByLabel(/^Time zone/).fill('Europe/Paris');
    await form.getByRole('button', { name: 'Create the queue' }).click();
    const card = page.locator('.account-queue', { hasText: who() });
    await card.getByText('2 slots a week in Europe/Paris: Monday 09:00, Thursday 17:30').waitFor();
    const rows = card.locator('tr.slot');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 10);
    const queue = await queueOf();
    const preview = (await api(`/v1/queues/${queue.id}/slots?count=10`, run.key)).body.data;
    const first = await rows.first().innerText();
    assert.match(first, new RegExp(`^${preview[0].day === 'monday' ? 'Monday 09:00' : 'Thursday 17:30'}`));
    assert.ok(first.includes(await shown(preview[0].at)), first);
    assert.equal(await card.locator('tr.slot', { hasText: 'free' }).count(), 10, 'every slot free');
  });

  test('compose with "next free slot": the post takes the first slot, and the queue shows it there', async () => {
    await page.goto(`${base}/#/compose`);
    await page.getByRole('checkbox', { name: who() }).check();
    await page.locator('#content-0').fill('Into the next free slot');
    await page.getByRole('checkbox', { name: 'Next free slot of the accounts\' queues' }).check();
    assert.equal(await page.getByLabel('Publish at (empty: now)').isDisabled(), true);
    const queue = await queueOf();
    const firstSlot = (await api(`/v1/queues/${queue.id}/slots?count=1`, run.key)).body.data[0].at;
    await page.getByTestId('next-slot').getByText(`The next free slot now: ${await shown(firstSlot)}`).waitFor();
    await screenshots(page, 'compose-next-slot');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.waitForURL(/#\/posts\/[^/]+$/);
    const id = decodeURIComponent(page.url().split('#/posts/')[1]!);
    const destination = page.locator('.destination', { hasText: who() });
    await destination.locator('.status-pending').waitFor();
    assert.ok((await destination.innerText()).includes(`scheduled for ${await shown(firstSlot)}`));
    assert.equal((await api(`/v1/posts/${id}`, run.key)).body.post.scheduledAt, firstSlot);

    await page.getByRole('link', { name: 'Queues' }).click();
    const rows = page.locator('.account-queue', { hasText: who() }).locator('tr.slot');
    await rows.first().getByRole('link', { name: 'Into the next free slot' }).waitFor();
    assert.equal(await rows.nth(1).getByRole('link').count(), 0, 'the second slot is still free');
    await screenshots(page, 'queues');
  });

  test('the queue is edited, then deleted', async () => {
    const card = page.locator('.account-queue', { hasText: who() });
    await card.getByRole('button', { name: `Edit the queue of ${who()}` }).click();
    const form = page.getByRole('form', { name: `Queue of ${who()}` });
    await form.getByRole('button', { name: 'Remove slot 2' }).click();
    await form.locator('input[name="time-0"]').fill('10:15');
    await form.getByLabel(/^Time zone/).fill('America/New_York');
    await form.getByRole('button', { name: 'Save the queue' }).click();
    await card.getByText('1 slot a week in America/New_York: Monday 10:15').waitFor();
    const stored = await queueOf();
    assert.deepEqual([stored.timeZone, stored.slots], ['America/New_York', [{ day: 'monday', time: '10:15' }]]);

    await card.getByRole('button', { name: `Delete the queue of ${who()}` }).click();
    await card.getByRole('button', { name: `Create a queue for ${who()}` }).waitFor();
    assert.equal((await api(`/v1/queues/${stored.id}`, run.key)).status, 404);
  });

  test('no script error on any page', () => {
    assert.deepEqual(session.pageErrors, []);
  });
});
