// Approvals (issue 34), end to end with a publishing worker and the X emulator: in an organization that
// requires approval a post waits `pending_approval`, never published however long the worker runs,
// until an approver approves it (then it publishes once, at its time or at once when that has passed)
// or rejects it (then it never publishes). The events reach a real webhook receiver and the event feed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { createLogger } from '../../src/log.ts';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/worker.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { TIME_SCALE, waitUntil } from '../helpers/webhooks.ts';

const APPROVAL_EVENTS = ['post.approval_requested', 'post.approved', 'post.rejected'];

let stack: PublishingStack;
let receiver: TestHttpsServer;
let deliverer: WebhookDeliverer;
let org: TestOrg;
let editor: string;
let approver: string;
let approverKeyId: string;
let xa: Awaited<ReturnType<PublishingStack['addXAccount']>>;
const received: { event: string; data: any }[] = [];

before(async () => {
  stack = await startPublishingStack({ CRIER_WEBHOOK_TIME_SCALE: String(TIME_SCALE) });
  receiver = await startHttpsServer();
  receiver.route('/crier', (_req, res, body) => {
    received.push(JSON.parse(body.toString('utf8')));
    res.writeHead(200).end();
  });
  deliverer = await startWebhookDeliverer(stack.server.config, { db: stack.server.db, box: stack.server.box, logger: createLogger('silent') });
  org = await stack.server.createOrg();
  xa = await stack.addXAccount(org);
  const hook = await stack.server.request('POST', '/v1/webhooks', {
    key: org.key, body: { name: 'approvals', url: `${receiver.url}/crier`, events: [...APPROVAL_EVENTS, 'post.published'], secret: 'approval-secret-123' },
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  editor = (await stack.server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'writer', role: 'editor' } })).body.data.key;
  const approverKey = (await stack.server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'reviewer', role: 'approver' } })).body.data;
  approver = approverKey.key;
  approverKeyId = approverKey.id;
  const setting = await stack.server.request('PATCH', '/v1/settings', { key: org.key, body: { requireApproval: true } });
  assert.deepEqual(setting.body, { success: true, data: { requireApproval: true } });
});
after(async () => {
  await deliverer.stop();
  await stack.close();
  await receiver.close();
});

async function create(body: object, key = editor) {
  const res = await stack.server.request('POST', '/v1/posts', { key, body: { accounts: [xa.id], ...body } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
const get = async (id: string) => (await stack.server.request('GET', `/v1/posts/${id}`, { key: approver })).body.post;
const tweetsOf = (text: string) => stack.x.tweets().filter((t) => t.authorId === xa.userId && t.text === text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const delivered = (type: string, postId: string) => waitUntil(() => received.find((e) => e.event === type && e.data.postId === postId), `${type} for ${postId}`);
const attempts = async (postId: string) =>
  (await stack.server.db.query('SELECT count(*)::int AS n FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1', [decodeId(postId)])).rows[0].n as number;

describe('a post waits for approval', () => {
  test('created with a past time, it never publishes while pending; approved, it publishes at once, once', async () => {
    const created = await create({ content: 'waits for a yes', scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    assert.equal(created.post.scheduled, false, 'not queued');
    assert.ok(created.warnings.some((w: string) => w.includes('pending_approval')), JSON.stringify(created.warnings));
    const id = created.post.id;
    assert.deepEqual((await get(id)).socialAccounts.map((a: any) => a.status), ['pending_approval']);
    const waiting = { status: 'pending', decidedAt: null, decidedBy: null, reason: null };
    assert.deepEqual(created.post.approval, waiting);
    assert.deepEqual((await get(id)).approval, waiting);

    const requested = await delivered('post.approval_requested', id);
    assert.deepEqual(requested.data, {
      postId: id, orgId: created.post.orgId, scheduledAt: created.post.scheduledAt,
      socialAccounts: [{ accountId: xa.id, network: 'x', username: xa.username }],
    });
    await sleep(2_500); // the worker looks at least every second
    assert.equal(tweetsOf('waits for a yes').length, 0, 'nothing published before approval');
    assert.equal(await attempts(id), 0, 'never claimed');
    assert.deepEqual((await get(id)).socialAccounts.map((a: any) => a.status), ['pending_approval']);

    const approved = await stack.server.request('POST', `/v1/posts/${id}/approve`, { key: approver });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.post.scheduled, true);
    const decision = approved.body.post.approval;
    assert.deepEqual({ ...decision, decidedAt: undefined }, { status: 'approved', decidedAt: undefined, decidedBy: approverKeyId, reason: null });
    assert.ok(Math.abs(Date.parse(decision.decidedAt) - Date.now()) < 60_000, decision.decidedAt);
    const post = await stack.waitForPost(org, id);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(tweetsOf('waits for a yes').length, 1, 'published once');

    const event = await delivered('post.approved', id);
    assert.deepEqual(event.data, { postId: id, orgId: created.post.orgId, scheduledAt: created.post.scheduledAt, approvedBy: approverKeyId });
    await delivered('post.published', id);
    const again = await stack.server.request('POST', `/v1/posts/${id}/approve`, { key: approver });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'post_not_pending_approval');
    assert.match(again.body.error, /was approved already/);
  });

  test('approved before its time, it publishes at its time, not before', async () => {
    const at = new Date(Date.now() + 3_000);
    const { post: created } = await create({ content: 'approved early', scheduledAt: at.toISOString() });
    assert.equal((await stack.server.request('POST', `/v1/posts/${created.id}/approve`, { key: approver })).status, 200);
    const post = await stack.waitForPost(org, created.id);
    assert.equal(post.socialAccounts[0].status, 'published');
    assert.ok(new Date(post.socialAccounts[0].publishedAt).getTime() >= at.getTime(), `${post.socialAccounts[0].publishedAt} is not before ${at.toISOString()}`);
    assert.equal(tweetsOf('approved early').length, 1);
  });

  test('rejected, it never publishes; the rejection is final', async () => {
    const { post: created } = await create({ content: 'will be turned down' });
    const id = created.id;
    const rejected = await stack.server.request('POST', `/v1/posts/${id}/reject`, { key: approver, body: { reason: '  off-brand  ' } });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    assert.deepEqual(rejected.body.post.socialAccounts.map((a: any) => a.status), ['rejected']);
    assert.equal(rejected.body.post.scheduled, false);
    assert.deepEqual([rejected.body.post.approval.status, rejected.body.post.approval.reason, rejected.body.post.approval.decidedBy], ['rejected', 'off-brand', approverKeyId]);
    const listed = (await stack.server.request('GET', `/v1/posts?status=rejected`, { key: approver })).body.posts.find((p: any) => p.id === id);
    assert.deepEqual(listed.approval, rejected.body.post.approval, 'the list says what GET says');
    const event = await delivered('post.rejected', id);
    assert.deepEqual(event.data, { postId: id, orgId: created.orgId, rejectedBy: approverKeyId, reason: 'off-brand' });

    await sleep(2_000);
    assert.equal(tweetsOf('will be turned down').length, 0);
    const approve = await stack.server.request('POST', `/v1/posts/${id}/approve`, { key: approver });
    assert.equal(approve.status, 409);
    assert.match(approve.body.error, /was rejected already/);
    const patch = await stack.server.request('PATCH', `/v1/posts/${id}`, { key: editor, body: { scheduledAt: new Date(Date.now() + 60_000).toISOString() } });
    assert.equal(patch.status, 409);
    assert.equal(patch.body.code, 'post_rejected');
    assert.deepEqual((await get(id)).socialAccounts.map((a: any) => a.status), ['rejected']);
    const deleted = await stack.server.request('DELETE', `/v1/posts/${id}`, { key: editor });
    assert.equal(deleted.body.outcome, 'record_deleted');
    assert.equal(tweetsOf('will be turned down').length, 0);
  });

  test('a rejection reason must be a string of at most 1000 characters; an unknown field is named', async () => {
    const { post } = await create({ content: 'bad rejections', isDraft: false });
    for (const [body, field] of [[{ reason: 5 }, 'reason'], [{ reason: 'x'.repeat(1001) }, 'reason'], [{ why: 'no' }, 'why']] as const) {
      const res = await stack.server.request('POST', `/v1/posts/${post.id}/reject`, { key: approver, body });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.details.map((d: any) => d.field), [field]);
    }
    assert.deepEqual((await get(post.id)).socialAccounts.map((a: any) => a.status), ['pending_approval'], 'still waiting');
    assert.equal((await stack.server.request('DELETE', `/v1/posts/${post.id}`, { key: editor })).body.outcome, 'cancelled');
  });

  test('rescheduling keeps a pending post pending; a draft asks for nothing until it is made a post', async () => {
    const { post: created } = await create({ content: 'moved while waiting' });
    const id = created.id;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const moved = await stack.server.request('PATCH', `/v1/posts/${id}`, { key: editor, body: { scheduledAt: later } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.post.scheduled, false);
    assert.deepEqual(moved.body.post.socialAccounts.map((a: any) => a.status), ['pending_approval']);

    const drafted = await stack.server.request('PATCH', `/v1/posts/${id}`, { key: editor, body: { isDraft: true } });
    assert.deepEqual(drafted.body.post.socialAccounts.map((a: any) => a.status), ['pending'], 'a draft waits for nobody');
    const decide = await stack.server.request('POST', `/v1/posts/${id}/approve`, { key: approver });
    assert.equal(decide.status, 409);
    assert.match(decide.body.error, /does not wait for approval/);

    const undrafted = await stack.server.request('PATCH', `/v1/posts/${id}`, { key: editor, body: { isDraft: false } });
    assert.deepEqual(undrafted.body.post.socialAccounts.map((a: any) => a.status), ['pending_approval']);
    const requests = (await stack.events(org.orgId)).filter((e) => e.type === 'post.approval_requested' && e.data.postId === id);
    assert.equal(requests.length, 2, 'asked on create and again when made a post; not on the reschedule');
    assert.equal(requests[1]!.data.scheduledAt, later);

    const { post: draft } = await create({ content: 'a draft', isDraft: true });
    assert.deepEqual((await get(draft.id)).socialAccounts.map((a: any) => a.status), ['pending']);
  });

  test("a cancelled pending post can no longer be approved; an admin may approve its own post", async () => {
    const { post: cancelled } = await create({ content: 'cancelled while waiting', scheduledAt: new Date(Date.now() - 1000).toISOString() });
    assert.equal((await stack.server.request('DELETE', `/v1/posts/${cancelled.id}`, { key: editor })).body.outcome, 'cancelled');
    const late = await stack.server.request('POST', `/v1/posts/${cancelled.id}/approve`, { key: approver });
    assert.equal(late.status, 409);
    assert.match(late.body.error, /was cancelled/);

    const { post: own } = await create({ content: 'by the admin' }, org.key);
    assert.equal((await stack.server.request('POST', `/v1/posts/${own.id}/approve`, { key: org.key })).status, 200);
    assert.equal((await stack.waitForPost(org, own.id)).socialAccounts[0].status, 'published');
    assert.equal(tweetsOf('cancelled while waiting').length, 0);
  });

  test('GET /v1/posts?status= lists the posts with a destination in a status, with the exact total; an unknown status is a 400', async () => {
    const waiting = [];
    for (const content of ['first to review', 'second to review']) waiting.push(await create({ content, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }));
    const list = async (query: string) => {
      const res = await stack.server.request('GET', `/v1/posts?${query}`, { key: approver });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const pending = await list('status=pending_approval&limit=100');
    const { rows } = await stack.server.db.query(
      "SELECT DISTINCT post_id FROM targets WHERE org_id = $1 AND status = 'pending_approval'", [org.orgId],
    );
    assert.equal(pending.pagination.total, rows.length);
    assert.deepEqual(pending.posts.map((p: any) => decodeId(p.id)).sort(), rows.map((r) => Number(r.post_id)).sort());
    assert.deepEqual(pending.posts.slice(0, 2).map((p: any) => p.id), waiting.map((w) => w.post.id).reverse(), 'newest first');
    assert.ok(pending.posts.every((p: any) => p.socialAccounts.some((a: any) => a.status === 'pending_approval') && p.approval.status === 'pending'));

    const page = await list('status=pending_approval&limit=1&offset=1');
    assert.deepEqual([page.posts.length, page.pagination.total, page.posts[0].id], [1, rows.length, waiting[0]!.post.id]);
    const either = await list('status=published,pending_approval&limit=100');
    const published = await stack.server.db.query("SELECT DISTINCT post_id FROM targets WHERE org_id = $1 AND status = 'published'", [org.orgId]);
    assert.ok(published.rows.length > 0);
    assert.equal(either.pagination.total, rows.length + published.rows.length, 'a post in either status');
    assert.equal((await list(`status=pending_approval&social_account_id=${xa.id}&limit=100`)).pagination.total, rows.length);
    assert.equal((await list('status=pending_approval&tenant_id=nobody')).pagination.total, 0);

    for (const bad of ['waiting', 'pending_approval,Published', ',']) {
      const res = await stack.server.request('GET', `/v1/posts?status=${encodeURIComponent(bad)}`, { key: approver });
      assert.equal(res.status, 400, bad);
      assert.deepEqual(res.body.details.map((d: any) => d.field), ['status'], bad);
    }
    for (const { post } of waiting) await stack.server.request('DELETE', `/v1/posts/${post.id}`, { key: editor });
  });

  test('the event feed lists the approval events', async () => {
    const res = await stack.server.request('GET', `/v1/events?types=${APPROVAL_EVENTS.join(',')}&limit=100`, { key: approver });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const types = new Set(res.body.data.map((e: any) => e.event));
    assert.deepEqual([...types].sort(), [...APPROVAL_EVENTS].sort());
  });
});

describe('an organization that does not require approval', () => {
  test('publishes at once, and its posts cannot be approved', async () => {
    const other = await stack.server.createOrg();
    const account = await stack.addXAccount(other);
    const res = await stack.server.request('POST', '/v1/posts', { key: other.key, body: { accounts: [account.id], content: 'no approval needed' } });
    assert.equal(res.body.post.scheduled, true);
    assert.equal(res.body.post.approval, null);
    assert.equal(res.body.post.recurrenceId, null);
    assert.equal(res.body.warnings, undefined);
    assert.equal((await stack.waitForPost(other, res.body.post.id)).socialAccounts[0].status, 'published');
    const approve = await stack.server.request('POST', `/v1/posts/${res.body.post.id}/approve`, { key: other.key });
    assert.equal(approve.status, 409);
    assert.equal((await stack.server.request('POST', `/v1/posts/${res.body.post.id}/approve`, { key: approver })).status, 404, "another org's post");
  });
});
