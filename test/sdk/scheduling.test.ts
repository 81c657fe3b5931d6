// The SDK's scheduling methods against a started Crier: a queue and "next-free-slot", approval
// switched on (for the organization, then for a tenant), a post approved and one rejected, each with
// the role its call needs; a recurrence and an evergreen collection.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, CrierError } from '../../sdk/src/index.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'x', 'sdk_queue');
});
after(() => server.close());

const crier = (apiKey = org.key) => new Crier({ baseUrl: server.url, apiKey });

test('queues: create, read, the next slots, and a post that takes the first free one', async () => {
  const sdk = crier();
  const created = await sdk.queues.create({ socialAccountId: account.id, timeZone: 'Europe/Paris', slots: [{ day: 'monday', time: '09:00' }, { day: 'thursday', time: '17:30' }] });
  const id = created.data.id;
  assert.equal((await sdk.queues.get(id)).data.timeZone, 'Europe/Paris');
  assert.ok((await sdk.queues.list()).data.some((queue) => queue.id === id));
  const before = (await sdk.queues.slots(id, { count: 2 })).data;
  assert.equal(before.length, 2);
  const post = await sdk.posts.create({ accounts: [account.id], content: 'in the next slot', scheduledAt: 'next-free-slot' });
  assert.equal(post.post.scheduledAt, before[0]!.at, 'the first free slot');
  const after = (await sdk.queues.slots(id, { count: 2 })).data;
  assert.deepEqual(after[0]!.postIds, [post.post.id]);
  await sdk.queues.update(id, { slots: [{ day: 'friday', time: '08:00' }] });
  assert.deepEqual((await sdk.queues.get(id)).data.slots, [{ day: 'friday', time: '08:00' }]);
  await sdk.queues.delete(id);
  await assert.rejects(sdk.queues.get(id), (error: unknown) => error instanceof CrierError && error.status === 404);
});

test('approvals: settings switched on by an admin key; an approver approves one post and rejects another', async () => {
  const admin = crier();
  const approverKey = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'reviewer', role: 'approver' } })).body.data.key as string;
  const approver = crier(approverKey);
  await assert.rejects(approver.settings.update({ requireApproval: true }), (error: unknown) => error instanceof CrierError && error.status === 403 && error.code === 'forbidden_role');
  assert.deepEqual((await admin.settings.update({ requireApproval: true })).data, { requireApproval: true });
  assert.deepEqual((await approver.settings.get()).data, { requireApproval: true });

  const later = new Date(Date.now() + 86_400_000).toISOString();
  const first = await admin.posts.create({ accounts: [account.id], content: 'to approve', scheduledAt: later });
  const second = await admin.posts.create({ accounts: [account.id], content: 'to reject', scheduledAt: later });
  assert.equal(first.post.scheduled, false, 'waiting for approval, not queued');
  assert.equal((await approver.posts.get(first.post.id)).post.socialAccounts[0]!.status, 'pending_approval');
  await approver.posts.approve(first.post.id);
  assert.equal((await admin.posts.get(first.post.id)).post.socialAccounts[0]!.status, 'pending');
  await approver.posts.reject(second.post.id, 'off-brand');
  assert.equal((await admin.posts.get(second.post.id)).post.socialAccounts[0]!.status, 'rejected');
  await assert.rejects(approver.posts.approve(second.post.id), (error: unknown) => error instanceof CrierError && error.status === 409);
  await admin.settings.update({ requireApproval: false });
});

test('recurrences: a weekly series creates its first occurrence as a post; paused, then deleted', async () => {
  const sdk = crier();
  const created = await sdk.recurrences.create({
    accounts: [account.id], content: 'every Monday', weekly: { days: ['monday'], time: '09:00', timeZone: 'Europe/Paris' }, count: 3,
  });
  const id = created.data.id;
  assert.ok((await sdk.recurrences.list()).data.some((series) => series.id === id));
  assert.equal((await sdk.recurrences.update(id, { status: 'paused' })).data.status, 'paused');
  assert.equal((await sdk.recurrences.get(id)).data.status, 'paused');
  await sdk.recurrences.delete(id);
  await assert.rejects(sdk.recurrences.get(id), (error: unknown) => error instanceof CrierError && error.status === 404);
});

test("a tenant's approval: set by an admin key, read by any, and it holds that tenant's posts", async () => {
  const admin = crier();
  const tenantAccount = await server.addAccount(org, 'bluesky', 'acme.bsky.social', { tenantId: 'acme' });
  assert.deepEqual((await admin.settings.tenant('acme')).data, { tenantId: 'acme', requireApproval: false, updatedAt: null });
  const set = await admin.settings.updateTenant('acme', { requireApproval: true });
  assert.equal(set.data.requireApproval, true);
  assert.deepEqual((await admin.settings.tenants()).data.map((t) => t.tenantId), ['acme']);
  const held = await admin.posts.create({ accounts: [tenantAccount.id], content: 'for acme' });
  assert.equal(held.post.approval?.status, 'pending');
  const free = await admin.posts.create({ accounts: [account.id], content: 'for nobody in particular' });
  assert.equal(free.post.approval, null);
  await admin.settings.updateTenant('acme', { requireApproval: false });
});

test('evergreen: a collection with items, its first post made, an item added and removed, then deleted', async () => {
  const sdk = crier();
  const created = await sdk.evergreen.create({
    name: 'best of', accounts: [account.id], every: { days: 7 }, minGapDays: 14, items: [{ content: 'an old favourite' }],
  });
  const id = created.data.id;
  assert.ok((await sdk.evergreen.list()).data.some((collection) => collection.id === id));
  const added = await sdk.evergreen.addItem(id, { content: 'another favourite' });
  assert.deepEqual((await sdk.evergreen.items(id)).data.map((item) => item.content), ['an old favourite', 'another favourite']);
  await sdk.evergreen.removeItem(id, added.data.id);
  assert.equal((await sdk.evergreen.items(id)).data.length, 1);
  assert.equal((await sdk.evergreen.update(id, { status: 'paused' })).data.status, 'paused');
  await sdk.evergreen.delete(id);
  await assert.rejects(sdk.evergreen.get(id), (error: unknown) => error instanceof CrierError && error.status === 404);
});

test('bulk imports: a CSV checked row by row, started once under one key, listed, cancelled before any row is done', async () => {
  const sdk = crier();
  const text = `accounts,content\n${account.id},first of the file\n${account.id},\nnobody_here,third of the file\n`;
  const verdicts = await sdk.bulkImports.check({ text, format: 'csv' });
  assert.deepEqual(verdicts.rows.map((row) => [row.row, row.accepted]), [[1, true], [2, false], [3, false]]);
  const started = await sdk.bulkImports.start({ text, format: 'csv' }, { idempotencyKey: 'sdk-bulk-1' });
  const again = await sdk.bulkImports.start({ text, format: 'csv' }, { idempotencyKey: 'sdk-bulk-1' });
  assert.equal(again.data.id, started.data.id, 'one job per key');
  // No worker runs in this server: the job waits, queued; it is cancelled before any row is done.
  assert.equal((await sdk.bulkImports.get(started.data.id)).data.status, 'queued');
  assert.ok((await sdk.bulkImports.list()).data.some((job) => job.id === started.data.id));
  const cancelled = await sdk.bulkImports.cancel(started.data.id);
  assert.deepEqual([cancelled.data.status, cancelled.data.cancelled, cancelled.data.created], ['cancelled', 3, 0]);
  await assert.rejects(sdk.bulkImports.cancel('nope'), (error: unknown) => error instanceof CrierError && error.status === 404);
});
