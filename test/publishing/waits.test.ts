// A network's waiting step (media processing, an upload session) does not hold a worker slot: the
// adapter throws PublishWait with a checkpoint, the engine stores it on the target and makes the
// target due again later, and the next claim hands the checkpoint back. Containers published before
// the wait stay published: the thread resumes, it is not reposted. The network here is a fake adapter
// standing in for X, so the test sees exactly what the engine asked of it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { NetworkAdapter, PublishInput } from '../../src/networks/contract.ts';
import type { PartRef } from '../../src/core/post.ts';
import { PublishError, PublishWait } from '../../src/core/errors.ts';
import { decodeId } from '../../src/core/ids.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

let stack: PublishingStack;
let org: TestOrg;
/** Every call the fake network received: container position, and the checkpoint it was prepared with (reconcile: {reconciled}). */
const calls: { position: number; checkpoint: Record<string, unknown> | undefined }[] = [];

/** Publishes every container; the second one (a video, say) needs processing the first time it is sent. */
const processingNetwork: NetworkAdapter = {
  network: 'x',
  async prepare(input: PublishInput) {
    return {
      reserve: (position) => ({ position }),
      async publishPart(position, _reservation, root): Promise<PartRef> {
        calls.push({ position, checkpoint: input.checkpoint });
        if (position === 1 && !input.checkpoint) throw new PublishWait(1500, { uploadId: 'upload-1', step: 'processing' });
        return { platformId: `${root?.platformId ?? 'root'}-${position}`, url: `https://example.test/${position}` };
      },
      async reconcile(position) {
        calls.push({ position, checkpoint: { reconciled: true } });
        return 'absent';
      },
    };
  },
};

/** What the second fake network was asked, in order. */
const retryCalls: { call: 'publish' | 'reconcile'; checkpoint: Record<string, unknown> | undefined }[] = [];

/** Waits once, then fails with a retryable error, then publishes: what a 5xx in the middle of an upload looks like. */
const retryingNetwork: NetworkAdapter = {
  network: 'threads',
  async prepare(input: PublishInput) {
    return {
      reserve: () => ({}),
      async publishPart(): Promise<PartRef> {
        retryCalls.push({ call: 'publish', checkpoint: input.checkpoint });
        if (!input.checkpoint) throw new PublishWait(100, { uploaded: 1 });
        if (retryCalls.filter((c) => c.call === 'publish').length === 2) throw new PublishError('retryable', 'threads: server error 503');
        return { platformId: 'after-retry', url: 'https://example.test/after-retry' };
      },
      async reconcile() {
        retryCalls.push({ call: 'reconcile', checkpoint: input.checkpoint });
        return 'absent';
      },
    };
  },
};

before(async () => {
  stack = await startPublishingStack({}, { worker: false });
  await stack.startWorker({ x: processingNetwork, threads: retryingNetwork });
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('a waiting step frees the slot, keeps what was published, and resumes from its checkpoint', async () => {
  const account = await stack.server.addAccount(org, 'x', 'waiting_x');
  const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'root' }, { content: 'video' }] } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const postId = decodeId(created.body.post.id)!;

  // While it waits: pending again, due later, the checkpoint and the root on record, no worker on it.
  const waiting = await until(async () => {
    const { rows } = await stack.server.db.query(
      `SELECT t.status, t.due_at, t.checkpoint, t.current_attempt_id, t.attempt_count,
              (SELECT json_agg(json_build_object('position', p.position, 'status', p.status) ORDER BY p.position) FROM target_parts p WHERE p.target_id = t.id) AS parts
         FROM targets t WHERE t.post_id = $1`,
      [postId],
    );
    return rows[0]?.checkpoint ? rows[0] : undefined;
  });
  assert.equal(waiting.status, 'pending');
  assert.equal(waiting.current_attempt_id, null, 'no attempt holds the target while it waits');
  assert.deepEqual(waiting.checkpoint, { uploadId: 'upload-1', step: 'processing' });
  assert.ok(waiting.due_at.getTime() > Date.now(), 'due again later');
  assert.equal(waiting.attempt_count, 0, 'a wait spends no attempt');
  assert.deepEqual(waiting.parts, [{ position: 0, status: 'published' }, { position: 1, status: 'reserved' }]);
  assert.equal((await stack.server.request('GET', `/v1/posts/${created.body.post.id}`, { key: org.key })).body.post.socialAccounts[0].status, 'pending');

  const post = await stack.waitForPost(org, created.body.post.id, undefined, 20_000);
  assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
  assert.equal(post.socialAccounts[0].platformPostId, 'root-0', 'the root published before the wait is the post');
  assert.deepEqual(calls, [
    { position: 0, checkpoint: undefined },
    { position: 1, checkpoint: undefined },
    { position: 1, checkpoint: { uploadId: 'upload-1', step: 'processing' } },
  ], 'the root once; the waiting container again, with its checkpoint, and nothing to reconcile');
  const attempts = await stack.server.db.query('SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id', [postId]);
  assert.deepEqual(attempts.rows.map((r) => r.outcome), ['waiting', 'published']);
  const target = await stack.server.db.query('SELECT checkpoint, due_at, attempt_count FROM targets WHERE post_id = $1', [postId]);
  assert.deepEqual(target.rows, [{ checkpoint: null, due_at: null, attempt_count: 1 }]);
  const events = (await stack.events(org.orgId)).filter((e) => e.data.postId === created.body.post.id);
  assert.deepEqual(events.map((e) => e.type), ['post.published']);
});

test('a retry keeps the checkpoint, and the next attempt reconciles before going on from it', async () => {
  const account = await stack.server.addAccount(org, 'threads', 'retrying_threads');
  const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: 'retried' } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const postId = decodeId(created.body.post.id)!;
  const retried = await until(async () => {
    const { rows } = await stack.server.db.query(
      `SELECT t.status, t.checkpoint FROM targets t WHERE t.post_id = $1 AND EXISTS (SELECT 1 FROM attempts a WHERE a.target_id = t.id AND a.outcome = 'retry')`, [postId],
    );
    return rows[0];
  });
  assert.deepEqual(retried, { status: 'pending', checkpoint: { uploaded: 1 } }, 'the retry kept what the wait stored');
  const post = await stack.waitForPost(org, created.body.post.id, undefined, 20_000);
  assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
  assert.deepEqual(retryCalls, [
    { call: 'publish', checkpoint: undefined },
    { call: 'publish', checkpoint: { uploaded: 1 } },
    { call: 'reconcile', checkpoint: { uploaded: 1 } },
    { call: 'publish', checkpoint: { uploaded: 1 } },
  ], 'after the wait it went straight on; after the retry it asked the network first');
  const attempts = await stack.server.db.query('SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 ORDER BY a.id', [postId]);
  assert.deepEqual(attempts.rows.map((r) => r.outcome), ['waiting', 'retry', 'published']);
});
