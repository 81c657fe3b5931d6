// The calendar in the dashboard, in a real Chromium against `crier start --sandbox`: posts created
// through the API at known times appear in the week's and the month's cell of their local day and
// hour — a scheduled post on two accounts, one that took its queue's slot, one waiting for approval,
// a recurring post's occurrence and its next occurrence projected — and the queue's free slots as
// empty places. A card dragged to another day is rescheduled (the API's scheduledAt moves); one
// dragged beyond the 30-day window is refused by the API, whose reason is shown while the card goes
// back; the keyboard's "Move…" refuses a past time and moves to a future one; the account, tenant and
// status filters keep what they name; a click opens the post, one on a free slot opens Compose for it;
// an evergreen collection's post is tagged so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { sandboxApi, SandboxRun } from '../helpers/sandbox.ts';
import { chromiumPath, openDashboard, screenshots, type DashboardSession } from './browser.ts';

const executable = chromiumPath();
const skip = executable ? false : 'no Chromium installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

/** Where the page puts an instant: its local day (`2026-11-30`) and hour. */
interface Place { day: string; hour: number }

describe('the calendar in the dashboard', { skip, timeout: 240_000 }, () => {
  let session: DashboardSession;
  let run: SandboxRun;
  let base: string;
  let page: Page;
  let api: ReturnType<typeof sandboxApi>;
  const ids: Record<'scheduled' | 'queued' | 'waiting' | 'farAhead' | 'occurrence' | 'tenant', string> = {} as never;
  let recurrenceId: string;
  let slots: { at: string; postIds: string[] }[];
  const bluesky = () => run.accounts.find((a) => a.network === 'bluesky')!;
  const threads = () => run.accounts.find((a) => a.network === 'threads')!;
  /** A second network that takes a text post. */
  const other = () => run.accounts.find((a) => ['mastodon', 'threads', 'x'].includes(a.network))!;

  /** An instant `days` after today at a local (browser) time, as ISO. */
  const localAt = (days: number, hour: number, minute: number) => page.evaluate(([d, h, m]) => {
    const now = new Date();
    return new Date(now.getFullYear(), now.getMonth(), now.getDate() + d!, h, m).toISOString();
  }, [days, hour, minute]);
  const placeOf = (iso: string): Promise<Place> => page.evaluate((i) => {
    const at = new Date(i);
    return { day: `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`, hour: at.getHours() };
  }, iso);
  /** An instant as the page says it. */
  const shown = (iso: string) => page.evaluate((i) => new Date(i).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), iso);
  const post = async (id: string) => (await api(`/v1/posts/${id}`, run.key)).body.post;
  const create = async (body: object) => {
    const created = await api('/v1/posts', run.key, { method: 'POST', body: JSON.stringify(body) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };

  const loaded = () => page.locator('.cal-scroll[aria-busy="false"]').waitFor();
  const gridStart = () => page.locator('.cal-week, .cal-month').getAttribute('data-start');
  const dayCell = (day: string) => page.locator(`.cal-cell[data-day="${day}"], .cal-mday[data-day="${day}"]`).first();
  /** From today's week or month, forward until every day given has its cell. */
  async function showDays(...days: string[]) {
    await page.getByRole('button', { name: 'Today' }).click();
    await loaded();
    for (let step = 0; step < 8; step++) {
      const present = await Promise.all(days.map((day) => dayCell(day).count()));
      if (present.every((n) => n > 0)) return;
      const start = await gridStart();
      await page.getByRole('button', { name: /^Next (week|month)$/ }).click();
      await page.waitForFunction((s) => document.querySelector('.cal-week, .cal-month')?.getAttribute('data-start') !== s, start);
      await loaded();
    }
    assert.fail(`no view shows ${days.join(' and ')}`);
  }
  const weekCell = (place: Place) => page.locator(`.cal-cell[data-day="${place.day}"][data-hour="${place.hour}"]`);
  const card = (id: string) => page.locator(`[data-post-id="${id}"]`);
  /** The card at the window's middle first: a drag that scrolled the page on its way would drop nothing. */
  const drag = async (source: Locator, target: Locator) => {
    await source.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await source.dragTo(target);
  };
  const view = async (name: 'Week' | 'Month') => {
    await page.getByRole('button', { name, exact: true }).click();
    await page.locator(name === 'Week' ? '.cal-week' : '.cal-month').waitFor();
    await loaded();
  };

  before(async () => {
    session = await openDashboard('crier-dashboard-calendar', executable!);
    ({ run, page, base, api } = session);
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(run.key);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('heading', { name: 'Posts' }).waitFor();

    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const queue = await api('/v1/queues', run.key, { method: 'POST', body: JSON.stringify({ socialAccountId: bluesky().id, timeZone: zone, slots: days.flatMap((day) => [{ day, time: '09:10' }, { day, time: '17:40' }]) }) });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));

    ids.scheduled = await create({ accounts: [bluesky().id, other().id], content: 'Launch day notes', scheduledAt: await localAt(2, 10, 20) });
    ids.queued = await create({ accounts: [bluesky().id], content: 'Into the queue', scheduledAt: 'next-free-slot' });
    ids.farAhead = await create({ accounts: [bluesky().id], content: 'Month end recap', scheduledAt: await localAt(29, 0, 30) });
    slots = (await api(`/v1/queues/${queue.body.data.id}/slots?count=2`, run.key)).body.data;

    assert.equal((await api('/v1/settings', run.key, { method: 'PATCH', body: JSON.stringify({ requireApproval: true }) })).status, 200);
    ids.waiting = await create({ accounts: [bluesky().id], content: 'Needs a yes first', scheduledAt: await localAt(3, 14, 5) });
    assert.equal((await api('/v1/settings', run.key, { method: 'PATCH', body: JSON.stringify({ requireApproval: false }) })).status, 200);

    // Connecting again with a tenant moves the sandbox's Threads account into it (the emulator consents at once).
    const connect = await api('/v1/social-networks/threads/auth-url', run.key, { method: 'POST', body: JSON.stringify({ tenant_id: 'acme' }) });
    const connected = await (await fetch(connect.body.data.auth_url)).json() as { data: { tenantId: string } };
    assert.equal(connected.data.tenantId, 'acme');
    ids.tenant = await create({ accounts: [threads().id], content: 'A word from acme', scheduledAt: await localAt(2, 12, 0) });

    const recurrence = await api('/v1/recurrences', run.key, { method: 'POST', body: JSON.stringify({ accounts: [other().id], content: 'Daily tip', every: { days: 1 }, startAt: await localAt(1, 16, 30), count: 4, variations: [{ content: 'Daily tip, take two' }] }) });
    assert.equal(recurrence.status, 201, JSON.stringify(recurrence.body));
    recurrenceId = recurrence.body.data.id;
    // The runner creates the first occurrence at once (within the 30-day window), in the background.
    for (let i = 0; i < 100 && !ids.occurrence; i++) {
      const occurrences = (await api(`/v1/recurrences/${recurrenceId}`, run.key)).body.data.occurrences ?? [];
      if (occurrences[0]?.postId) ids.occurrence = occurrences[0].postId;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(ids.occurrence, 'the first occurrence was created');

    await page.getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await loaded();
  });
  after(() => session?.close());

  test('the week shows each post in its day and hour: scheduled, in a queue slot, waiting for approval, recurring, and the free slots and projected occurrences', async () => {
    const scheduledAt = (await post(ids.scheduled)).scheduledAt;
    const at = await placeOf(scheduledAt);
    await showDays(at.day);
    const scheduled = weekCell(at).locator(card(ids.scheduled));
    await scheduled.waitFor();
    const text = await scheduled.innerText();
    assert.match(text, /^10:20/);
    for (const part of ['Launch day notes', 'pending']) assert.ok(text.includes(part), text);
    assert.equal(await scheduled.locator('.network-icon').count(), 2, 'one icon per network');

    const firstSlot = await placeOf(slots[0]!.at);
    assert.deepEqual(slots[0]!.postIds, [ids.queued], 'the queued post took the first slot');
    await showDays(firstSlot.day);
    const queued = weekCell(firstSlot).locator(card(ids.queued));
    assert.ok((await queued.innerText()).includes('queue slot'), await queued.innerText());
    const freeAt = slots[1]!.at;
    await showDays((await placeOf(freeAt)).day);
    const free = weekCell(await placeOf(freeAt)).locator(`.cal-slot[data-slot-at="${freeAt}"]`);
    assert.match(await free.innerText(), new RegExp(`Free slot · @${bluesky().username}`));
    assert.equal(await free.getByRole('link').getAttribute('href'), `#/compose?${new URLSearchParams({ account: bluesky().id, at: freeAt })}`);

    const waiting = await placeOf((await post(ids.waiting)).scheduledAt);
    await showDays(waiting.day);
    assert.ok((await weekCell(waiting).locator(card(ids.waiting)).innerText()).includes('waiting for approval'));

    const firstAt = (await post(ids.occurrence)).scheduledAt;
    const first = await placeOf(firstAt);
    // Every day: 24 hours later (its local time moves across a daylight-saving change).
    const nextAt = new Date(Date.parse(firstAt) + 86_400_000).toISOString();
    const next = await placeOf(nextAt);
    await showDays(first.day);
    const occurrence = await weekCell(first).locator(card(ids.occurrence)).innerText();
    assert.ok(occurrence.includes('recurring') && occurrence.includes('Daily tip'), occurrence);
    await showDays(next.day);
    const projected = weekCell(next).locator(`.cal-projected[data-recurrence-id="${recurrenceId}"]`);
    const nextTime = await page.evaluate((i) => new Date(i).toTimeString().slice(0, 5), nextAt);
    assert.match(await projected.innerText(), new RegExp(`^${nextTime}[\\s\\S]*Daily tip, take two[\\s\\S]*projected`));
    assert.equal(await projected.locator('[draggable]').count() + await projected.getByRole('link').count(), 0, 'a projection is neither moved nor opened');

    await showDays(at.day);
    await screenshots(page, 'calendar-week');
  });

  test('the month shows the same posts in their day', async () => {
    await view('Month');
    const scheduled = await placeOf((await post(ids.scheduled)).scheduledAt);
    const waiting = await placeOf((await post(ids.waiting)).scheduledAt);
    await showDays(scheduled.day, waiting.day);
    await page.locator(`.cal-mday[data-day="${scheduled.day}"]`).locator(card(ids.scheduled)).waitFor();
    await page.locator(`.cal-mday[data-day="${waiting.day}"]`).locator(card(ids.waiting)).waitFor();
    assert.match(await page.locator('.cal-title').innerText(), /\d{4}/);
    await screenshots(page, 'calendar-month');
  });

  test('a card dragged to another day is rescheduled there, at the hour of the cell and its own minutes; dropped on a free slot, at the slot\'s time', async () => {
    await view('Week');
    const from = await placeOf((await post(ids.scheduled)).scheduledAt);
    await showDays(from.day);
    // The day after, or the day before when that is the week's end.
    const sunday = await page.evaluate((day) => new Date(`${day}T12:00`).getDay() === 0, from.day);
    const expected = await localAt(sunday ? 1 : 3, 15, 20);
    const to = await placeOf(expected);
    await drag(card(ids.scheduled), weekCell(to));
    await page.getByRole('status').filter({ hasText: `Moved "Launch day notes" to ${await shown(expected)}.` }).waitFor();
    assert.equal((await post(ids.scheduled)).scheduledAt, expected);
    await weekCell(to).locator(card(ids.scheduled)).waitFor();
    assert.equal(await weekCell(from).locator(card(ids.scheduled)).count(), 0);

    // Dropped on a free slot of the queue, it takes the slot's own time, and stands in the slot.
    const slot = weekCell({ day: to.day, hour: 17 }).locator('.cal-slot');
    const slotAt = (await slot.getAttribute('data-slot-at'))!;
    await drag(card(ids.scheduled), slot);
    await page.getByRole('status').filter({ hasText: `Moved "Launch day notes" to ${await shown(slotAt)}.` }).waitFor();
    assert.equal((await post(ids.scheduled)).scheduledAt, slotAt);
    const inSlot = weekCell({ day: to.day, hour: 17 }).locator(card(ids.scheduled));
    await inSlot.getByText('queue slot').waitFor();
    assert.equal(await page.locator(`.cal-slot[data-slot-at="${slotAt}"]`).count(), 0, 'the slot is taken');
  });

  test('a card dragged beyond the 30-day window: the API refuses, its reason is shown, the card goes back and the post keeps its time', async () => {
    await view('Month');
    const before = (await post(ids.farAhead)).scheduledAt;
    const from = await placeOf(before);
    const to = await placeOf(await localAt(31, 0, 30));
    await showDays(from.day, to.day);
    await drag(card(ids.farAhead), page.locator(`.cal-mday[data-day="${to.day}"]`));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const said = await alert.innerText();
    assert.ok(said.startsWith(`Not moved: "Month end recap" stays at ${await shown(before)}. Validation failed.`), said);
    assert.match(said, /Publish at: must be at most 30 days in the future/);
    await page.locator(`.cal-mday[data-day="${from.day}"]`).locator(card(ids.farAhead)).waitFor();
    assert.equal(await page.locator(`.cal-mday[data-day="${to.day}"]`).locator(card(ids.farAhead)).count(), 0);
    assert.equal((await post(ids.farAhead)).scheduledAt, before);
    await screenshots(page, 'calendar-refused');
  });

  test('from the keyboard, "Move…" refuses a past time without calling the API, then moves the post to the time typed', async () => {
    await view('Week');
    const before = (await post(ids.waiting)).scheduledAt;
    await showDays((await placeOf(before)).day);
    const move = async (local: string) => {
      await page.getByRole('button', { name: 'Move "Needs a yes first"…' }).click();
      const form = page.getByRole('form', { name: 'New time for "Needs a yes first"' });
      await form.getByLabel('New time').fill(local);
      await form.getByLabel('New time').press('Enter');
    };
    const input = (iso: string) => page.evaluate((i) => {
      const at = new Date(i);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
    }, iso);
    const yesterday = await localAt(-1, 9, 0);
    await move(await input(yesterday));
    const alert = page.getByRole('alert').filter({ hasText: 'has passed' });
    await alert.waitFor();
    assert.match(await alert.innerText(), new RegExp(`^Not moved: ${(await shown(yesterday)).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} has passed`));
    assert.equal((await post(ids.waiting)).scheduledAt, before);

    const later = await localAt(3, 18, 45);
    await move(await input(later));
    await page.getByRole('status').filter({ hasText: 'Moved "Needs a yes first"' }).waitFor();
    const moved = await post(ids.waiting);
    assert.equal(moved.scheduledAt, later);
    assert.equal(moved.socialAccounts[0].status, 'pending_approval', 'it still waits for approval');
    await weekCell(await placeOf(later)).locator(card(ids.waiting)).waitFor();
  });

  test('the account filter keeps that account\'s posts, slots and projections only', async () => {
    await showDays((await placeOf((await post(ids.scheduled)).scheduledAt)).day);
    const filter = page.getByLabel(/^Account/);
    await page.locator('.cal-slot').first().waitFor();
    await page.locator('.cal-projected').first().waitFor();
    await filter.selectOption(other().id);
    await page.waitForFunction(() => !document.querySelector('.cal-slot'));
    await card(ids.scheduled).waitFor();
    assert.equal(await page.locator('.cal-projected').count() > 0, true, 'the recurrence is this account\'s');
    await filter.selectOption(bluesky().id);
    await page.waitForFunction(() => !document.querySelector('.cal-projected') && document.querySelector('.cal-slot'));
    await card(ids.scheduled).waitFor();
    await filter.selectOption('');
    await page.locator('.cal-projected').first().waitFor();
  });

  test('the tenant filter keeps the posts of that tenant\'s accounts', async () => {
    const at = await placeOf((await post(ids.tenant)).scheduledAt);
    await showDays(at.day);
    const tenant = page.getByLabel(/^Tenant/);
    await tenant.selectOption('acme');
    await page.waitForFunction(() => !document.querySelector('.cal-slot, .cal-projected'));
    await weekCell(at).locator(card(ids.tenant)).waitFor();
    assert.deepEqual(await page.locator('[data-post-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-post-id'))), [ids.tenant]);
    await tenant.selectOption('');
    await page.locator('.cal-slot').first().waitFor();
  });

  test('the status filter keeps the posts with a destination in that status, and no slot or projection', async () => {
    const waiting = await placeOf((await post(ids.waiting)).scheduledAt);
    await showDays(waiting.day);
    const status = page.getByLabel(/^Status/);
    await status.selectOption('pending_approval');
    await page.waitForFunction(() => !document.querySelector('.cal-slot, .cal-projected'));
    await weekCell(waiting).locator(card(ids.waiting)).waitFor();
    assert.deepEqual(await page.locator('[data-post-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-post-id'))), [ids.waiting]);
    await status.selectOption('');
    await page.locator('.cal-slot').first().waitFor();
  });

  test('a click on a card opens the post', async () => {
    await showDays((await placeOf((await post(ids.scheduled)).scheduledAt)).day);
    await card(ids.scheduled).getByRole('link', { name: 'Launch day notes' }).click();
    await page.getByRole('heading', { name: `Post ${ids.scheduled}` }).waitFor();
    assert.ok(page.url().endsWith(`#/posts/${ids.scheduled}`));
  });

  test('a click on a free slot opens Compose for that account at that time', async () => {
    const queue = (await api(`/v1/queues?social_account_id=${bluesky().id}`, run.key)).body.data[0];
    const free = (await api(`/v1/queues/${queue.id}/slots?count=10`, run.key)).body.data.find((s: { postIds: string[] }) => !s.postIds.length);
    const at: string = free.at;
    await page.goto(`${base}/#/calendar`);
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    await showDays((await placeOf(at)).day);
    const slot = page.locator(`.cal-slot[data-slot-at="${at}"]`);
    await slot.getByRole('link').click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: `@${bluesky().username.replace(/^@/, '')}` }).isChecked(), true);
    const local = await page.evaluate((iso) => { const d = new Date(iso); return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16); }, at);
    assert.equal(await page.locator('input[name="scheduledAt"]').inputValue(), local);
  });

  test("an evergreen collection's post is tagged evergreen", async () => {
    const accountId = run.accounts.find((a) => a.network === 'linkedin')!.id;
    const made = await api('/v1/evergreen-collections', run.key, {
      method: 'POST', body: JSON.stringify({ name: 'classics', accounts: [accountId], every: { days: 7 }, startAt: await localAt(4, 11, 15), items: [{ content: 'An evergreen classic' }] }),
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    let postId: string | undefined;
    for (let i = 0; i < 100 && !postId; i++) {
      postId = (await api(`/v1/evergreen-collections/${made.body.data.id}`, run.key)).body.data.latestPosts?.[0]?.postId;
      if (!postId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(postId, 'the runner made the first post');
    await page.goto(`${base}/#/calendar`);
    await page.getByRole('heading', { name: 'Calendar' }).waitFor();
    const place = await placeOf((await post(postId!)).scheduledAt);
    await showDays(place.day);
    const tags = await weekCell(place).locator(card(postId!)).locator('.cal-tag').allInnerTexts();
    assert.ok(tags.includes('evergreen'), tags.join(', '));
  });

  test('no script error on any page', () => {
    assert.deepEqual(session.pageErrors, []);
  });
});
