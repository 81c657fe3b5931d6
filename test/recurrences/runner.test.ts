// The recurrence runner with its clock stepped: each occurrence becomes exactly one post, with two
// runners racing and after a restart; one ahead, never more; a paused recurrence creates nothing and
// skips what fell due meanwhile; a deleted one cancels its unstarted occurrence; approval applies; an
// occurrence the create path refuses is recorded with the reason, and no post.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { createRecurrence } from '../../src/recurrences/manage.ts';
import { materializeDue, materializeNext, occurrenceFetchPolicy, startRecurrenceRunner, type RecurrenceDeps } from '../../src/recurrences/runner.ts';
import { decodeId, encodeId } from '../../src/core/ids.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
let deps: RecurrenceDeps;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
  deps = { db: server.db, logger: createLogger('silent'), fetch: occurrenceFetchPolicy(server.config) };
});
after(() => server.close());

const HOUR = 3_600_000;
const api = (method: string, path: string, body?: unknown) => server.request(method, path, { key: org.key, body });

/** A recurrence created as if it were `now` (the rule's times then lie around `now`). */
async function hourly(now: Date, more: Record<string, unknown> = {}, owner = org, accounts = [account.id]) {
  const { recurrence } = await createRecurrence(server.db, owner.orgId, { accounts, content: 'Hourly tip', every: { hours: 1 }, ...more }, now, deps.fetch);
  return recurrence.id as string;
}

/** One runner pass over this recurrence alone (the other tests' recurrences stay out of its counts). */
const step = (id: string, now: Date) => materializeNext(deps, decodeId(id)!, now).then(Number);

async function occurrences(id: string) {
  const { rows } = await server.db.query<{ occurrence_index: number; post_id: number | null; scheduled_at: Date; refused: string | null }>(
    'SELECT occurrence_index, post_id, scheduled_at, refused FROM recurrence_occurrences WHERE recurrence_id = $1 ORDER BY occurrence_index', [decodeId(id)],
  );
  return rows;
}

async function postsOf(id: string) {
  const { rows } = await server.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM posts p JOIN recurrence_occurrences o ON o.post_id = p.id WHERE o.recurrence_id = $1', [decodeId(id)],
  );
  return rows[0]!.n;
}

describe('exactly once', () => {
  test('one ahead: the first at once, each next one when the one before is due, each at its time', async () => {
    const t0 = new Date('2031-05-01T10:00Z');
    const created = new Date(t0.getTime() - 2 * HOUR);
    const id = await hourly(created, { count: 3, startAt: t0.toISOString() });
    assert.equal(await step(id, created), 1);
    assert.equal(await step(id, new Date(t0.getTime() - HOUR)), 0, 'the second waits for the first to be due');
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, new Date(t0.getTime() + 30 * 60_000)), 0, 'the third waits for the second');
    assert.equal(await step(id, new Date(t0.getTime() + HOUR)), 1);
    assert.equal(await step(id, new Date(t0.getTime() + 2 * HOUR)), 0, 'count reached');
    const rows = await occurrences(id);
    assert.deepEqual(rows.map((r) => [r.occurrence_index, r.scheduled_at.toISOString()]), [
      [0, '2031-05-01T10:00:00.000Z'], [1, '2031-05-01T11:00:00.000Z'], [2, '2031-05-01T12:00:00.000Z'],
    ]);
    const post = (await api('GET', `/v1/posts/${encodeId(rows[1]!.post_id!)}`)).body.post;
    assert.equal(post.scheduledAt, '2031-05-01T11:00:00.000Z');
    assert.equal(post.content ?? post.containers?.[0]?.content, 'Hourly tip');
    assert.equal(post.recurrenceId, id, 'the post names its recurrence');
    const listed = (await api('GET', '/v1/posts?scheduled_after=2031-05-01T10:30Z&scheduled_before=2031-05-01T11:30Z')).body.posts;
    assert.deepEqual(listed.map((p: { id: string; recurrenceId: string }) => [p.id, p.recurrenceId]), [[post.id, id]], 'and so does the list');
    const recurrence = (await api('GET', `/v1/recurrences/${id}`)).body.data;
    assert.equal(recurrence.status, 'completed');
    assert.equal(recurrence.postsCreated, 3);
    assert.equal(recurrence.occurrences.length, 3);
  });

  test('a content changed by PATCH goes to the occurrences created after it; the one created before keeps its own', async () => {
    const t0 = new Date('2031-07-01T10:00Z');
    const id = await hourly(new Date(t0.getTime() - HOUR), { count: 2, startAt: t0.toISOString() });
    assert.equal(await step(id, new Date(t0.getTime() - HOUR)), 1);
    const patched = await api('PATCH', `/v1/recurrences/${id}`, { content: 'Hourly tip, rewritten' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(await step(id, t0), 1);
    const contents = [];
    for (const row of await occurrences(id)) contents.push((await api('GET', `/v1/posts/${encodeId(row.post_id!)}`)).body.post.containers[0].content);
    assert.deepEqual(contents, ['Hourly tip', 'Hourly tip, rewritten']);
  });

  test('two runners racing over the same clock steps create each occurrence once', async () => {
    const t0 = new Date('2031-06-01T10:00Z');
    const id = await hourly(new Date(t0.getTime() - HOUR), { count: 4, startAt: t0.toISOString() });
    const other: RecurrenceDeps = { ...deps };
    for (let step = 0; step < 4; step++) {
      // Created an hour ahead: each step makes the one before due, and so one more occurrence creatable.
      const now = new Date(t0.getTime() + (step - 1) * HOUR);
      await Promise.all([
        materializeDue(deps, now), materializeDue(other, now), materializeNext(deps, decodeId(id)!, now), materializeNext(other, decodeId(id)!, now),
      ]);
      assert.equal((await occurrences(id)).length, step + 1, `step ${step}`);
    }
    assert.deepEqual((await occurrences(id)).map((r) => r.occurrence_index), [0, 1, 2, 3]);
    assert.equal(await postsOf(id), 4);
  });

  test('a runner stopped and started again creates nothing twice', async () => {
    const t0 = new Date('2031-07-01T10:00Z');
    let now = new Date(t0.getTime() - 2 * HOUR);
    const id = await hourly(now, { count: 5, startAt: t0.toISOString() });
    const start = () => startRecurrenceRunner({ ...deps, now: () => now }, { pollMs: 20 });
    let runner = start();
    try {
      await until(async () => ((await occurrences(id)).length === 1 ? true : undefined));
      await runner.stop();
      runner = start();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await occurrences(id)).length, 1, 'the restarted runner found nothing due');
      now = t0;
      // The runner sleeps until the next due time by its clock: a stepped clock wakes it as a create does.
      await server.db.query("SELECT pg_notify('crier_recurrences', '')");
      await until(async () => ((await occurrences(id)).length === 2 ? true : undefined));
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await runner.stop();
    }
    assert.equal((await occurrences(id)).length, 2);
    assert.equal(await postsOf(id), 2);
  });
});

describe('pause, delete, approval, refusals', () => {
  test('paused: nothing new; resumed: the occurrences whose time passed are skipped, the next is created', async () => {
    const t0 = new Date(Date.now() - 5 * HOUR);
    const id = await hourly(t0);
    assert.equal(await step(id, t0), 1);
    assert.equal((await api('PATCH', `/v1/recurrences/${id}`, { status: 'paused' })).status, 200);
    assert.equal(await step(id, new Date(t0.getTime() + HOUR)), 0);
    assert.equal((await api('PATCH', `/v1/recurrences/${id}`, { status: 'active' })).status, 200);
    // 2 h 30 after t0: the 1 h occurrence is more than an hour late (skipped), the 2 h one is created.
    assert.equal(await step(id, new Date(t0.getTime() + 2.5 * HOUR)), 1);
    assert.deepEqual((await occurrences(id)).map((r) => r.occurrence_index), [0, 2]);
    assert.equal((await api('GET', `/v1/recurrences/${id}`)).body.data.occurrencesSkipped, 1);
  });

  test('deleted: its unstarted occurrence is cancelled, and nothing more is created', async () => {
    const t0 = new Date(Date.now() + HOUR);
    const id = await hourly(new Date(), { startAt: t0.toISOString() });
    assert.equal(await step(id, new Date()), 1);
    const [occurrence] = await occurrences(id);
    const postId = encodeId(occurrence!.post_id!);
    const res = await api('DELETE', `/v1/recurrences/${id}`);
    assert.deepEqual(res.body, { success: true, cancelledPostIds: [postId] });
    const post = (await api('GET', `/v1/posts/${postId}`)).body.post;
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['cancelled']);
    assert.equal(await step(id, new Date(t0.getTime() + HOUR)), 0);
  });

  test('an organization requiring approval: the occurrence waits for an approver like any post', async () => {
    const approving = await server.createOrg();
    const mine = await server.addAccount(approving, 'bluesky');
    assert.equal((await server.request('PATCH', '/v1/settings', { key: approving.key, body: { requireApproval: true } })).status, 200);
    const id = await hourly(new Date(), {}, approving, [mine.id]);
    assert.equal(await step(id, new Date()), 1);
    const [occurrence] = await occurrences(id);
    const post = (await server.request('GET', `/v1/posts/${encodeId(occurrence!.post_id!)}`, { key: approving.key })).body.post;
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['pending_approval']);
  });

  test('an occurrence whose account is gone is recorded with the reason, no post; the next one still comes', async () => {
    const owner = await server.createOrg();
    const gone = await server.addAccount(owner, 'bluesky');
    const t0 = new Date('2031-08-01T10:00Z');
    const id = await hourly(t0, { count: 2 }, owner, [gone.id]);
    await server.db.query('DELETE FROM social_accounts WHERE id = $1', [gone.rawId]);
    assert.equal(await step(id, t0), 1);
    const [occurrence] = await occurrences(id);
    assert.equal(occurrence!.post_id, null);
    assert.match(occurrence!.refused!, /No account in "accounts" matches/);
    assert.equal(await step(id, new Date(t0.getTime() + HOUR)), 1);
    assert.equal((await occurrences(id)).length, 2);
  });

  test('an occurrence falling while the subscription is not active: recorded with the reason, no post', async () => {
    const owner = await server.createOrg();
    const mine = await server.addAccount(owner, 'bluesky');
    const t0 = new Date('2031-09-01T10:00Z');
    const id = await hourly(t0, { count: 1 }, owner, [mine.id]);
    await server.db.query("UPDATE orgs SET subscription_status = 'past_due' WHERE id = $1", [owner.orgId]);
    assert.equal(await step(id, t0), 1);
    const [occurrence] = await occurrences(id);
    assert.equal(occurrence!.post_id, null);
    assert.match(occurrence!.refused!, /subscription is past_due/);
    assert.equal(await postsOf(id), 0);
  });
});
