// Import in the dashboard, in a real Chromium against `crier start --sandbox`: a CSV with good and bad
// rows is picked, the page shows the dry run's verdict of each row as the API gives it; "Import"
// (clicked twice) makes one job, followed until it completes, and its posts exist; a large import is
// cancelled from the page, and the recent imports list both jobs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { sandboxApi, SandboxRun } from '../helpers/sandbox.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

describe('bulk import in the dashboard', { skip, timeout: 180_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let page: Page;
  let api: ReturnType<typeof sandboxApi>;
  const accountOf = (network: string) => run.accounts.find((a) => a.network === network)!;
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const pickFile = (name: string, text: string, mimeType = 'text/csv') =>
    page.getByLabel(/^CSV or JSON-lines file/).setInputFiles({ name, mimeType, buffer: Buffer.from(text) });
  const dryRunOf = async (csv: string) => {
    const res = await fetch(`${base}/v1/posts/bulk?dry_run=true`, { method: 'POST', headers: { authorization: `Bearer ${run.key}`, 'content-type': 'text/csv' }, body: csv });
    assert.equal(res.status, 200);
    return (await res.json()) as { ok: number; total: number; rows: any[] };
  };

  before(async () => {
    session = await openDashboard('crier-dashboard-import', executable!);
    ({ run, page, base, api } = session);
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
  });
  after(() => session?.close());

  test('a CSV with good and bad rows: each row\'s verdict as the API judges it; one import, completed, its posts stored', async () => {
    const bluesky = accountOf('bluesky');
    const x = accountOf('x');
    const threads = accountOf('threads');
    const queue = await api('/v1/queues', run.key, { method: 'POST', body: JSON.stringify({ socialAccountId: threads.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '09:00' }] }) });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));
    const tomorrow = inDays(1);
    const csv = [
      'accounts,content,scheduledAt,isDraft',
      `${bluesky.id},Imported for tomorrow,${tomorrow},`,
      `${bluesky.username},Imported as a draft,,true`,
      'nobody_here,Nobody has this account,,',
      `${x.id},${'Far too long for X '.repeat(20).trim()},${inDays(1)},`,
      `${bluesky.id},Beyond the window,${inDays(40)},`,
      `${threads.id},Into the queue,next-free-slot,`,
    ].join('\n');
    const expected = await dryRunOf(csv);
    assert.deepEqual(expected.rows.map((r) => [r.ok, r.accepted]), [[true, true], [true, true], [false, false], [false, true], [false, false], [true, true]]);
    const slot = expected.rows[5].scheduledAt;
    assert.ok(slot, 'the dry run says which slot the queue row would take');

    await page.getByRole('link', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import', exact: true }).waitFor();
    await pickFile('week.csv', csv);
    await page.getByTestId('import-summary').getByText('3 ok, 3 refused').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'import-summary', 'focus moves to the verdicts\' summary');

    const rows = page.locator('tr.import-row');
    assert.equal(await rows.count(), 6);
    const words = { ok: 'ok', refused: 'refused', warn: 'destination refused' };
    for (const [i, verdict] of expected.rows.entries()) {
      const row = rows.nth(i);
      const word = verdict.ok ? words.ok : verdict.accepted ? words.warn : words.refused;
      assert.equal((await row.locator('td').nth(1).innerText()).replace(/^\W+/, ''), word, `row ${verdict.row}`);
      for (const detail of verdict.details ?? []) assert.ok((await row.innerText()).includes(detail.message), `row ${verdict.row} says "${detail.message}"`);
      for (const destination of (verdict.destinations ?? []).filter((d: any) => !d.ok)) {
        assert.ok((await row.innerText()).includes(destination.reasons[0]), `row ${verdict.row} says why ${destination.network} refuses`);
      }
    }
    assert.match(await rows.nth(2).innerText(), /no entry matches an account id or exact username/);
    assert.match(await rows.nth(4).innerText(), /Publish at: must be at most 30 days in the future/);
    const slotShown = await page.evaluate((iso) => new Date(iso).toLocaleString(), slot);
    assert.ok((await rows.nth(5).innerText()).includes(`Next free slot: ${slotShown}`), await rows.nth(5).innerText());
    await screenshots(page, 'import-verdicts');

    // Four rows the create accepts (the X one is stored, and fails when it publishes): a double click is one job.
    const importButton = page.getByRole('button', { name: 'Import 4 rows' });
    await importButton.dblclick();
    const progress = page.getByTestId('job-progress');
    await progress.getByText('6 of 6 rows done: 4 created, 2 failed.').waitFor({ timeout: 30_000 });
    await page.locator('.import-job h2', { hasText: 'completed' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'job-heading', 'focus moves to the import under way');
    assert.equal(await importButton.isDisabled(), true, 'the file is imported: its button is done');

    const list = (await api('/v1/posts/bulk', run.key)).body;
    assert.equal(list.count, 1, 'one job, whatever the clicks');
    const job = (await api(`/v1/posts/bulk/${list.data[0].id}`, run.key)).body.data;
    assert.deepEqual([job.status, job.created, job.failed], ['completed', 4, 2]);
    assert.deepEqual(job.rows.map((r: any) => r.status), ['created', 'created', 'failed', 'created', 'failed', 'created']);
    const posts = await Promise.all(job.rows.filter((r: any) => r.postId).map(async (r: any) => (await api(`/v1/posts/${r.postId}`, run.key)).body.post));
    assert.deepEqual(posts.map((p: any) => [p.containers[0].content.slice(0, 21), p.isDraft]), [
      ['Imported for tomorrow', false], ['Imported as a draft', true], ['Far too long for X Fa', false], ['Into the queue', false],
    ]);
    assert.equal(posts[3].scheduledAt, slot, 'the queue row took the slot the dry run said');
    assert.equal(posts[0].scheduledAt, tomorrow, 'the row\'s time is the post\'s');
    await page.locator('.failed-rows', { hasText: 'Row 3: ' }).waitFor();
    await page.locator('tr.import-job-row', { hasText: '4 created, 2 failed' }).waitFor();
    await screenshots(page, 'import-completed');
  });

  test('a large import is cancelled from the page: the rows not yet done create nothing', async () => {
    const bluesky = accountOf('bluesky');
    const rowsCount = 6000;
    const csv = ['accounts,content,isDraft', ...Array.from({ length: rowsCount }, (_, i) => `${bluesky.id},Large import row ${i + 1},true`)].join('\n');
    const postsCount = async () => (await api('/v1/posts?limit=1', run.key)).body.count as number;
    const postsBefore = await postsCount();
    await pickFile('large.csv', csv);
    await page.getByTestId('import-summary').getByText(`${rowsCount} ok, 0 refused`).waitFor({ timeout: 30_000 });
    assert.match(await page.locator('.import-verdicts caption').innerText(), /the first 50 of 6000/);
    await page.getByRole('button', { name: `Import ${rowsCount} rows` }).click();
    await page.getByRole('button', { name: 'Cancel the import' }).click();
    await page.locator('.import-job h2', { hasText: 'cancelled' }).waitFor({ timeout: 30_000 });

    const list = (await api('/v1/posts/bulk', run.key)).body;
    assert.equal(list.count, 2);
    const job = (await api(`/v1/posts/bulk/${list.data[0].id}`, run.key)).body.data;
    assert.equal(job.status, 'cancelled');
    assert.ok(job.cancelled > 0 && job.created + job.cancelled === rowsCount, JSON.stringify({ created: job.created, cancelled: job.cancelled }));
    await page.getByTestId('job-progress').getByText(`${job.created} of ${rowsCount} rows done: ${job.created} created, 0 failed, ${job.cancelled} cancelled.`).waitFor();
    console.log(`cancelled after ${job.created} of ${rowsCount} rows`);
    assert.equal(await postsCount(), postsBefore + job.created, 'a post per created row, none for the cancelled ones');
    const listed = page.locator('tr.import-job-row', { hasText: `${job.created} created, 0 failed, ${job.cancelled} cancelled` });
    await listed.waitFor();
    assert.equal((await listed.locator('td[data-label="Status"]').innerText()).replace(/\s+/g, ' ').trim(), '– cancelled');
    await screenshots(page, 'import-cancelled');
  });

  test('no script error on any page', () => {
    assert.deepEqual(session.pageErrors, []);
  });
});
