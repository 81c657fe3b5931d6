// POST /v1/posts with "scheduledAt": "next-free-slot" over real HTTP: the slot taken, the slots freed
// by cancelling or publishing early, concurrent creates racing for slots, several accounts, the
// account without a queue, the 30-day window, the account quota, and the dry run's preview.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { createAccountResolver } from '../../src/posts/accounts.ts';
import { previewNextFreeSlot } from '../../src/posts/create.ts';
import { dryRunCreate } from '../../src/posts/dry-run.ts';
import { parseCreateBody } from '../../src/posts/validate.ts';
import { DATE_TIME_MESSAGE } from '../../src/validation/date-time.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
after(() => server.close());

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const HOUR = 3_600_000;
const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => server.request(method, path, { key: org.key, body, headers });
const nextFree = (accounts: TestAccount[], extra: Record<string, unknown> = {}) =>
  api('POST', '/v1/posts', { accounts: accounts.map((a) => a.id), content: 'queued', scheduledAt: 'next-free-slot', ...extra });

/** A UTC queue with a slot every day at each of `hours`; the upcoming slot instants, counted independently. */
async function queueAt(account: TestAccount, hours: number[]): Promise<{ id: string; upcoming: (n: number) => string[] }> {
  const slots = DAYS.flatMap((day) => hours.map((h) => ({ day, time: `${String(h).padStart(2, '0')}:00` })));
  const res = await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'UTC', slots });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    id: res.body.data.id,
    upcoming(n) {
      const found: string[] = [];
      for (let at = Math.floor(Date.now() / HOUR) * HOUR + HOUR; found.length < n; at += HOUR) {
        if (hours.includes(new Date(at).getUTCHours())) found.push(new Date(at).toISOString());
      }
      return found;
    },
  };
}

describe('one account', () => {
  test('posts take the slots in order; cancelling one frees its slot for the next post', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [7, 19]);
    const [first, second, third] = queue.upcoming(3);
    const a = await nextFree([account]);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(a.body.post.scheduledAt, first);
    assert.equal(a.body.post.scheduled, true);
    const b = await nextFree([account]);
    assert.equal(b.body.post.scheduledAt, second);
    const due = await server.db.query<{ due_at: Date }>('SELECT due_at FROM targets WHERE post_id = (SELECT id FROM posts WHERE scheduled_at = $1 AND org_id = $2)', [second, org.orgId]);
    assert.deepEqual(due.rows.map((r) => r.due_at.toISOString()), [second], 'queued for its slot');

    assert.equal((await api('DELETE', `/v1/posts/${a.body.post.id}`)).body.outcome, 'cancelled');
    assert.equal((await nextFree([account])).body.post.scheduledAt, first, 'the cancelled post\'s slot');
    assert.equal((await nextFree([account])).body.post.scheduledAt, third);
  });

  test('publishing early frees the slot: moved to now, or published by the worker', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [5, 11, 17, 23]);
    const [first, second] = queue.upcoming(2);
    const a = (await nextFree([account])).body.post;
    const b = (await nextFree([account])).body.post;
    assert.deepEqual([a.scheduledAt, b.scheduledAt], [first, second]);

    const moved = await api('PATCH', `/v1/posts/${a.id}`, { scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await nextFree([account])).body.post.scheduledAt, first);

    // What the publishing worker writes when a post went out (its slot time not yet reached).
    await server.db.query("UPDATE targets SET status = 'published', published_at = now(), due_at = NULL WHERE post_id = (SELECT id FROM posts WHERE scheduled_at = $1 AND org_id = $2 AND cancelled_at IS NULL LIMIT 1)", [second, org.orgId]);
    const preview = await api('GET', `/v1/queues/${queue.id}/slots?count=2`);
    assert.deepEqual(preview.body.data[1].postIds, [], 'a published post no longer holds its slot');
    assert.equal((await nextFree([account])).body.post.scheduledAt, second);
  });

  test('20 concurrent creates, with and without Idempotency-Keys, take 20 distinct slots: the first 20', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [0, 3, 6, 9, 12, 15, 18, 21]);
    const stamp = Date.now();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api('POST', '/v1/posts',
      { accounts: [account.id], content: `race ${i}`, scheduledAt: 'next-free-slot' },
      i % 2 ? { 'idempotency-key': `race-${stamp}-${i}` } : {})));
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(200), JSON.stringify(results.find((r) => r.status !== 200)?.body));
    const taken = results.map((r) => r.body.post.scheduledAt as string);
    assert.equal(new Set(taken).size, 20, 'no slot given twice');
    assert.deepEqual([...taken].sort(), queue.upcoming(20));
    const stored = await server.db.query<{ scheduled_at: Date }>(
      'SELECT p.scheduled_at FROM posts p JOIN targets t ON t.post_id = p.id WHERE t.account_id = $1 ORDER BY 1', [account.rawId]);
    assert.deepEqual(stored.rows.map((r) => r.scheduled_at.toISOString()), queue.upcoming(20));
  });
});

describe('with the create\'s other options', () => {
  test('an Idempotency-Key replays the slot it got, taking no second one', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [6, 18]);
    const [first, second] = queue.upcoming(2);
    const body = { accounts: [account.id], content: 'once', scheduledAt: 'next-free-slot' };
    const key = { 'idempotency-key': `slot-once-${Date.now()}` };
    const a = await api('POST', '/v1/posts', body, key);
    const b = await api('POST', '/v1/posts', body, key);
    assert.equal(a.body.post.scheduledAt, first);
    assert.equal(b.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(b.body.post, a.body.post);
    assert.equal((await nextFree([account])).body.post.scheduledAt, second);
  });

  test('a draft put in a slot holds it, unqueued', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [9, 21]);
    const [first, second] = queue.upcoming(2);
    const draft = await nextFree([account], { isDraft: true });
    assert.equal(draft.status, 200, JSON.stringify(draft.body));
    assert.deepEqual([draft.body.post.scheduledAt, draft.body.post.isDraft, draft.body.post.scheduled], [first, true, false]);
    assert.equal((await nextFree([account])).body.post.scheduledAt, second);
  });
});

describe('several accounts', () => {
  test('the earliest slot common to their queues and free on every one of them', async () => {
    const a = await server.addAccount(org, 'linkedin');
    const b = await server.addAccount(org, 'threads');
    const qa = await queueAt(a, [2, 8, 14, 20]);
    await queueAt(b, [8, 20]);
    const common = qa.upcoming(12).filter((at) => [8, 20].includes(new Date(at).getUTCHours()));
    // b's first common slot is held by a post of its own.
    const held = await api('POST', '/v1/posts', { accounts: [b.id], content: 'b alone', scheduledAt: common[0] });
    assert.equal(held.status, 200);
    const res = await nextFree([a, b]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.post.scheduledAt, common[1]);
    assert.deepEqual(res.body.post.socialAccounts.map((s: any) => s.id), [a.id, b.id]);
  });

  test('an account without a queue: 400 naming it, nothing stored', async () => {
    const queued = await server.addAccount(org, 'linkedin');
    await queueAt(queued, [9]);
    const bare = await server.addAccount(org, 'threads', 'no_queue_here');
    const before = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId]);
    const res = await nextFree([queued, bare]);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'account_without_queue');
    assert.equal(res.body.details.length, 1);
    assert.equal(res.body.details[0].field, 'socialAccounts[1]');
    assert.match(res.body.details[0].message, new RegExp(`threads account no_queue_here \\(${bare.id}\\) has no queue`));
    const afterCount = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId]);
    assert.equal(afterCount.rows[0].n, before.rows[0].n);
  });
});

describe('limits', () => {
  test('every slot within 30 days held: 400 saying the next free one lies beyond the window', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [10]);
    const horizon = Date.now() + 30 * 86_400_000;
    const upcoming = queue.upcoming(32);
    const inWindow = upcoming.filter((at) => Date.parse(at) <= horizon - 60_000);
    for (const at of inWindow) assert.equal((await api('POST', '/v1/posts', { accounts: [account.id], content: 'fill', scheduledAt: at })).status, 200);
    const res = await nextFree([account]);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body.details, [{
      field: 'scheduledAt',
      message: `"next-free-slot": the next free slot, ${upcoming[inWindow.length]}, is more than 30 days ahead, beyond the scheduling window`,
    }]);
  });

  test('a slot whose quota window is used up is passed over (TikTok: 6 posts a minute)', async () => {
    const account = await server.addAccount(org, 'tiktok');
    const queue = await queueAt(account, [1, 13]);
    const [first, second] = queue.upcoming(2);
    const video = { containers: [{ content: 'clip', media: [{ url: 'https://cdn.example.com/clip.mp4', filename: 'clip.mp4' }] }] };
    for (let i = 0; i < 6; i += 1) {
      const res = await api('POST', '/v1/posts', { accounts: [account.id], ...video, scheduledAt: new Date(Date.parse(first!) - 30_000).toISOString() });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const res = await api('POST', '/v1/posts', { accounts: [account.id], ...video, scheduledAt: 'next-free-slot' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.post.scheduledAt, second);
  });

  test('a scheduledAt that is neither form is a 400 on scheduledAt, in the date-time wording, and stores nothing', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const res = await api('POST', '/v1/posts', { accounts: [account.id], content: 'x', scheduledAt: 'next-slot' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details[0], { field: 'scheduledAt', message: DATE_TIME_MESSAGE });
    assert.ok(res.body.details.every((d: any) => d.field === 'scheduledAt'));
    const stored = await server.db.query('SELECT 1 FROM targets WHERE account_id = $1', [account.rawId]);
    assert.equal(stored.rows.length, 0);
  });
});

describe('dry run', () => {
  test('resolves the slot a create would take, and takes nothing', async () => {
    const account = await server.addAccount(org, 'linkedin');
    const queue = await queueAt(account, [4, 16]);
    const [first] = queue.upcoming(1);
    const resolver = createAccountResolver(server.db);
    const now = new Date();
    const parsed = parseCreateBody({ accounts: [account.id], content: 'preview', scheduledAt: 'next-free-slot' }, now, { allowLoopback: false, isOwnMedia: () => false });
    const run = () => dryRunCreate(parsed, (entries) => resolver.submit({ orgId: org.orgId, entries }), undefined, undefined,
      (request, accounts) => previewNextFreeSlot(server.db, org.orgId, request, accounts, now));
    const body = await run();
    assert.equal(body.scheduledAt, first);
    assert.equal((await run()).scheduledAt, first, 'nothing was taken');
    assert.equal((await nextFree([account])).body.post.scheduledAt, first);

    const bare = await server.addAccount(org, 'threads');
    const refused = parseCreateBody({ accounts: [bare.id], content: 'preview', scheduledAt: 'next-free-slot' }, now, { allowLoopback: false, isOwnMedia: () => false });
    await assert.rejects(
      dryRunCreate(refused, (entries) => resolver.submit({ orgId: org.orgId, entries }), undefined, undefined, (request, accounts) => previewNextFreeSlot(server.db, org.orgId, request, accounts, now)),
      (error: any) => error.status === 400 && error.code === 'account_without_queue',
    );
  });
});
