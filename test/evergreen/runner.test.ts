// The evergreen runner with its clock stepped: one post ahead on the accounts' queue slots and on a
// rule; the item used longest ago whose gap has passed (ties by position), its variations in turn;
// none eligible: it says why and waits, and an added item ends the wait; each turn once with two
// runners racing and after a restart; refusals recorded with the reason; approval applies; a deleted
// collection cancels its unstarted post.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { createCollection } from '../../src/evergreen/manage.ts';
import { NO_SLOT_RETRY_MS, runDue, runNext, startEvergreenRunner, type EvergreenDeps } from '../../src/evergreen/runner.ts';
import { occurrenceFetchPolicy } from '../../src/recurrences/runner.ts';
import { decodeId, encodeId } from '../../src/core/ids.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let org: TestOrg;
let deps: EvergreenDeps;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  deps = { db: server.db, logger: createLogger('silent'), fetch: occurrenceFetchPolicy(server.config) };
});
after(() => server.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const api = (method: string, path: string, body?: unknown, owner = org) => server.request(method, path, { key: owner.key, body });

/** One runner pass over this collection alone (the other tests' collections stay out of its counts). */
const step = (id: string, now: Date) => runNext(deps, decodeId(id)!, now).then(Number);

/** An account with a queue of one slot a day at 09:00 UTC. */
async function queuedAccount(owner = org): Promise<TestAccount> {
  const account = await server.addAccount(owner, 'bluesky');
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const res = await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'UTC', slots: days.map((day) => ({ day, time: '09:00' })) }, owner);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return account;
}

async function create(now: Date, body: Record<string, unknown>, owner = org): Promise<string> {
  const { data } = await createCollection(server.db, owner.orgId, { name: 'Evergreen', minGapDays: 0, ...body }, now, deps.fetch);
  return data.id;
}

interface Turn { run: number; item: string | null; scheduledAt: string; content: string | null; refused: string | null; postId: number | null }

/** The collection's turns, each with its item's own text and the text its post went out with. */
async function turns(id: string): Promise<Turn[]> {
  const { rows } = await server.db.query<{ run: number; item: any; scheduled_at: Date; post_id: number | null; refused: string | null; content: string | null }>(
    `SELECT e.run, i.post->>'content' AS item, e.scheduled_at, e.post_id::int, e.refused,
            (SELECT c.content FROM containers c WHERE c.post_id = e.post_id ORDER BY c.position LIMIT 1) AS content
       FROM evergreen_posts e LEFT JOIN evergreen_items i ON i.id = e.item_id WHERE e.collection_id = $1 ORDER BY e.run`,
    [decodeId(id)],
  );
  return rows.map((r) => ({ run: r.run, item: r.item, scheduledAt: r.scheduled_at.toISOString(), content: r.content, refused: r.refused, postId: r.post_id }));
}

const collection = async (id: string, owner = org) => (await api('GET', `/v1/evergreen-collections/${id}`, undefined, owner)).body.data;

describe('choosing the item, one post ahead', () => {
  test("queue: each post takes the next free slot; least recently used first, ties by position; variations in turn", async () => {
    const account = await queuedAccount();
    const t0 = at('2031-05-01T08:00Z');
    const id = await create(t0, {
      accounts: [account.id], queue: true, minGapDays: 2,
      items: [{ content: 'Alpha', variations: [{ content: 'Alpha again' }] }, { content: 'Beta' }, { content: 'Gamma' }],
    });
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, t0), 0, 'one ahead: the next waits for this one to be due');
    for (const day of ['01', '02', '03', '04']) assert.equal(await step(id, at(`2031-05-${day}T09:00Z`)), 1, `turn after 05-${day}`);
    assert.deepEqual((await turns(id)).map((t) => [t.item, t.content, t.scheduledAt]), [
      ['Alpha', 'Alpha', '2031-05-01T09:00:00.000Z'],
      ['Beta', 'Beta', '2031-05-02T09:00:00.000Z'],
      ['Gamma', 'Gamma', '2031-05-03T09:00:00.000Z'],
      // Alpha's gap (2 days from 05-01 09:00) has passed at 05-03 09:00: its variation's turn.
      ['Alpha', 'Alpha again', '2031-05-04T09:00:00.000Z'],
      ['Beta', 'Beta', '2031-05-05T09:00:00.000Z'],
    ]);
    const data = await collection(id);
    assert.deepEqual(data.items.map((i: any) => [i.content, i.timesUsed, i.lastUsedAt]), [
      ['Alpha', 2, '2031-05-04T09:00:00.000Z'], ['Beta', 2, '2031-05-05T09:00:00.000Z'], ['Gamma', 1, '2031-05-03T09:00:00.000Z'],
    ]);
    assert.equal(data.turns, 5);
    assert.equal(data.nextRunAt, '2031-05-05T09:00:00.000Z');
    assert.equal(data.waiting, null);
    assert.deepEqual(data.latestPosts.map((p: any) => [p.turn, p.variation]), [[4, 0], [3, 1], [2, 0], [1, 0], [0, 0]]);
    const post = (await api('GET', `/v1/posts/${data.latestPosts[0].postId}`)).body.post;
    assert.equal(post.scheduledAt, '2031-05-05T09:00:00.000Z');
    assert.deepEqual([post.evergreenCollectionId, post.recurrenceId], [id, null], 'the post names its collection');
    const listed = (await api('GET', '/v1/posts?scheduled_after=2031-05-05T08:00Z&scheduled_before=2031-05-05T10:00Z')).body.posts;
    assert.deepEqual(listed.map((p: { id: string; evergreenCollectionId: string }) => [p.id, p.evergreenCollectionId]), [[post.id, id]], 'and so does the list');
  });

  test('queue: no item eligible: it says why and waits until the first gap has passed; an added item ends the wait', async () => {
    const account = await queuedAccount();
    const t0 = at('2031-06-01T08:00Z');
    const id = await create(t0, { accounts: [account.id], queue: true, minGapDays: 3, items: [{ content: 'One' }, { content: 'Two' }] });
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, at('2031-06-01T09:00Z')), 1);
    assert.equal(await step(id, at('2031-06-02T09:00Z')), 0, 'both used within 3 days');
    let data = await collection(id);
    assert.match(data.waiting, /every item was used less than 3 days \(minGapDays\) before 2031-06-02T09:00:00.000Z; the first becomes eligible at 2031-06-04T09:00:00.000Z/);
    assert.equal(data.nextRunAt, '2031-06-04T09:00:00.000Z');
    assert.equal(await step(id, at('2031-06-03T09:00Z')), 0);

    const added = await api('POST', `/v1/evergreen-collections/${id}/items`, { content: 'Three' });
    assert.equal(added.status, 201);
    assert.equal(await step(id, at('2031-06-03T10:00Z')), 1, 'the new item is taken at once');
    assert.equal(await step(id, at('2031-06-04T09:00Z')), 1, "then One, whose gap has passed");
    assert.deepEqual((await turns(id)).map((t) => [t.item, t.scheduledAt]), [
      ['One', '2031-06-01T09:00:00.000Z'], ['Two', '2031-06-02T09:00:00.000Z'], ['Three', '2031-06-04T09:00:00.000Z'], ['One', '2031-06-05T09:00:00.000Z'],
    ]);
    data = await collection(id);
    assert.equal(data.waiting, null);
  });

  test('a shorter gap set while waiting is judged at once', async () => {
    const account = await queuedAccount();
    const t0 = at('2031-06-10T08:00Z');
    const id = await create(t0, { accounts: [account.id], queue: true, minGapDays: 10, items: [{ content: 'Solo' }] });
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, at('2031-06-10T09:00Z')), 0);
    assert.equal((await collection(id)).nextRunAt, '2031-06-20T09:00:00.000Z');
    const patched = await api('PATCH', `/v1/evergreen-collections/${id}`, { minGapDays: 1 });
    assert.equal(patched.body.data.minGapDays, 1);
    assert.equal(await step(id, at('2031-06-11T10:00Z')), 1);
    assert.deepEqual((await turns(id)).map((t) => t.scheduledAt), ['2031-06-10T09:00:00.000Z', '2031-06-12T09:00:00.000Z']);
  });

  test('rule: each post at its occurrence; an occurrence with no eligible item is passed over, counted, with the reason', async () => {
    const account = await server.addAccount(org, 'bluesky');
    const t0 = at('2031-07-01T10:00Z');
    const created = plus(t0, -HOUR);
    const id = await create(created, { accounts: [account.id], every: { days: 1 }, startAt: t0.toISOString(), minGapDays: 3, items: [{ content: 'Red' }, { content: 'Blue' }] });
    assert.equal(await step(id, created), 1);
    assert.equal(await step(id, plus(t0, -1)), 0, 'the second waits for the first to be due');
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, plus(t0, DAY)), 0, 'the third occurrence (t0 + 2 days): Red was used 2 days before, Blue 1');
    let data = await collection(id);
    assert.match(data.waiting, /less than 3 days/);
    assert.equal(data.occurrencesSkipped, 1);
    assert.equal(data.nextOccurrenceAt, plus(t0, 3 * DAY).toISOString());
    assert.equal(await step(id, plus(t0, 2 * DAY)), 1);
    assert.deepEqual((await turns(id)).map((t) => [t.item, t.scheduledAt]), [
      ['Red', t0.toISOString()], ['Blue', plus(t0, DAY).toISOString()], ['Red', plus(t0, 3 * DAY).toISOString()],
    ]);
    data = await collection(id);
    assert.equal(data.waiting, null);
    assert.equal(data.nextRunAt, plus(t0, 3 * DAY).toISOString());
  });

  test('no items: it waits with no next run; the first item added is posted at once', async () => {
    const account = await queuedAccount();
    const id = await create(new Date(), { accounts: [account.id], queue: true });
    const now = plus(new Date(), HOUR);
    assert.equal(await step(id, now), 0);
    let data = await collection(id);
    assert.match(data.waiting, /no items/);
    assert.equal(data.nextRunAt, null);
    assert.equal((await api('POST', `/v1/evergreen-collections/${id}/items`, { content: 'At last' })).status, 201);
    assert.equal(await step(id, now), 1);
    data = await collection(id);
    assert.deepEqual(data.items.map((i: any) => i.timesUsed), [1]);
  });
});

describe('exactly once', () => {
  test('two runners racing over the same clock steps take each turn once', async () => {
    const account = await queuedAccount();
    const t0 = at('2031-08-01T08:00Z');
    const id = await create(t0, { accounts: [account.id], queue: true, items: [{ content: 'A' }, { content: 'B' }, { content: 'C' }] });
    const other: EvergreenDeps = { ...deps };
    const clocks = [t0, at('2031-08-01T09:00Z'), at('2031-08-02T09:00Z'), at('2031-08-03T09:00Z')];
    for (const [i, now] of clocks.entries()) {
      await Promise.all([runDue(deps, now), runDue(other, now), runNext(deps, decodeId(id)!, now), runNext(other, decodeId(id)!, now)]);
      assert.equal((await turns(id)).length, i + 1, `step ${i}`);
    }
    const all = await turns(id);
    assert.deepEqual(all.map((t) => t.item), ['A', 'B', 'C', 'A']);
    assert.equal(new Set(all.map((t) => t.scheduledAt)).size, 4, 'each in its own slot');
    const { rows } = await server.db.query('SELECT count(*)::int AS n FROM posts p JOIN evergreen_posts e ON e.post_id = p.id WHERE e.collection_id = $1', [decodeId(id)]);
    assert.equal(rows[0].n, 4);
  });

  test('a runner stopped and started again takes nothing twice', async () => {
    const account = await queuedAccount();
    let now = at('2031-09-01T08:00Z');
    const id = await create(now, { accounts: [account.id], queue: true, items: [{ content: 'Once' }, { content: 'Twice' }] });
    const start = () => startEvergreenRunner({ ...deps, now: () => now }, { pollMs: 20 });
    let runner = start();
    try {
      await until(async () => ((await turns(id)).length === 1 ? true : undefined));
      await runner.stop();
      runner = start();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await turns(id)).length, 1, 'the restarted runner found nothing due');
      now = at('2031-09-01T09:00Z');
      await server.db.query("SELECT pg_notify('crier_evergreen', '')");
      await until(async () => ((await turns(id)).length === 2 ? true : undefined));
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await runner.stop();
    }
    assert.deepEqual((await turns(id)).map((t) => t.item), ['Once', 'Twice']);
  });
});

describe('refusals, waits, approval, pause, delete', () => {
  test("an item's post refused by the create path: the turn is recorded with the reason, no post, and the next item follows", async () => {
    const owner = await server.createOrg();
    const gone = await server.addAccount(owner, 'bluesky');
    const t0 = at('2031-10-01T10:00Z');
    const id = await create(t0, { accounts: [gone.id], every: { hours: 1 }, items: [{ content: 'First' }, { content: 'Second' }] }, owner);
    await server.db.query('DELETE FROM social_accounts WHERE id = $1', [gone.rawId]);
    assert.equal(await step(id, t0), 1);
    assert.equal(await step(id, t0), 1, 'the first turn is due at t0: the second is taken one ahead');
    assert.equal(await step(id, t0), 0);
    const all = await turns(id);
    assert.deepEqual(all.map((t) => [t.item, t.postId]), [['First', null], ['Second', null]]);
    assert.match(all[0]!.refused!, /No account in "accounts" matches/);
    const data = await collection(id, owner);
    assert.deepEqual(data.items.map((i: any) => [i.timesUsed, i.lastUsedAt !== null]), [[0, true], [0, true]], 'a refused turn is the item\'s turn, but no use');
    assert.match(data.latestPosts[0].refused, /No account/);
  });

  test('a subscription not active: the turn is refused with the reason, no post', async () => {
    const owner = await server.createOrg();
    const account = await server.addAccount(owner, 'bluesky');
    const t0 = at('2031-10-05T10:00Z');
    const id = await create(t0, { accounts: [account.id], every: { days: 1 }, items: [{ content: 'Paid only' }] }, owner);
    await server.db.query("UPDATE orgs SET subscription_status = 'past_due' WHERE id = $1", [owner.orgId]);
    assert.equal(await step(id, t0), 1);
    const [turn] = await turns(id);
    assert.equal(turn!.postId, null);
    assert.match(turn!.refused!, /subscription is past_due/);
  });

  test('queue: an account without a queue is the slot\'s fault, not the item\'s: it waits an hour with the reason, no turn; a PATCH looks again', async () => {
    const account = await server.addAccount(org, 'bluesky');
    const now = at('2031-11-01T08:00Z');
    const id = await create(now, { accounts: [account.id], queue: true, items: [{ content: 'Queued' }] });
    assert.equal(await step(id, now), 0);
    let data = await collection(id);
    assert.match(data.waiting, /has no queue/);
    assert.equal(data.nextRunAt, plus(now, NO_SLOT_RETRY_MS).toISOString());
    assert.deepEqual(await turns(id), []);
    assert.deepEqual(data.items.map((i: any) => i.lastUsedAt), [null], 'the item kept its turn');
    assert.equal((await api('POST', '/v1/queues', { socialAccountId: account.id, timeZone: 'UTC', slots: [{ day: 'monday', time: '12:00' }] })).status, 201);
    assert.equal((await api('PATCH', `/v1/evergreen-collections/${id}`, { name: 'Queued now' })).status, 200);
    assert.equal(await step(id, now), 1);
    data = await collection(id);
    assert.equal(data.waiting, null);
    assert.equal(data.latestPosts[0].scheduledAt, '2031-11-03T12:00:00.000Z', 'the Monday slot');
  });

  test('an organization requiring approval: the post waits for an approver like any post', async () => {
    const approving = await server.createOrg();
    const account = await queuedAccount(approving);
    assert.equal((await api('PATCH', '/v1/settings', { requireApproval: true }, approving)).status, 200);
    const id = await create(new Date(), { accounts: [account.id], queue: true, items: [{ content: 'Approve me' }] }, approving);
    assert.equal(await step(id, new Date()), 1);
    const [turn] = await turns(id);
    const post = (await api('GET', `/v1/posts/${encodeId(turn!.postId!)}`, undefined, approving)).body.post;
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['pending_approval']);
  });

  test('paused: nothing is created; resumed: the next turn at once', async () => {
    const account = await queuedAccount();
    const id = await create(new Date(), { accounts: [account.id], queue: true, status: 'paused', items: [{ content: 'Later' }] });
    assert.equal(await step(id, plus(new Date(), HOUR)), 0);
    assert.equal((await api('PATCH', `/v1/evergreen-collections/${id}`, { status: 'active' })).status, 200);
    assert.equal(await step(id, plus(new Date(), HOUR)), 1);
  });

  test('deleted: its unstarted post is cancelled, and nothing more is created', async () => {
    const account = await queuedAccount();
    const id = await create(new Date(), { accounts: [account.id], queue: true, items: [{ content: 'Soon gone' }] });
    assert.equal(await step(id, new Date()), 1);
    const [turn] = await turns(id);
    const postId = encodeId(turn!.postId!);
    const res = await api('DELETE', `/v1/evergreen-collections/${id}`);
    assert.deepEqual(res.body, { success: true, cancelledPostIds: [postId] });
    const post = (await api('GET', `/v1/posts/${postId}`)).body.post;
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['cancelled']);
    assert.equal(await step(id, plus(new Date(), 2 * DAY)), 0);
  });
});
