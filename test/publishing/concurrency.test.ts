// Several workers on one database, woken all at once and again and again: every destination is
// claimed by one of them, once, and published exactly once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { notifyDue } from '../../src/publishing/queue.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  // Small batches, so that both workers keep claiming from the same due targets.
  stack = await startPublishingStack({ CRIER_PUBLISH_CONCURRENCY: '4' }, { worker: false });
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('two workers, 30 posts to two networks made due together, a storm of wake-ups: one claim and one publication per destination', async () => {
  const xa = await stack.addXAccount(org);
  const ba = await stack.addBlueskyAccount(org);
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [xa.id, ba.id], containers: [{ content: `post ${i}` }, { content: `reply ${i}` }], isDraft: true } });
    ids.push(res.body.post.id);
  }
  await Promise.all([stack.startWorker(), stack.startWorker()]);
  // Every post due at once (PATCHes racing each other), with both workers woken many times over.
  const storm = setInterval(() => void notifyDue(stack.server.db).catch(() => {}), 5);
  try {
    const patched = await Promise.all(ids.map((id) => stack.server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { isDraft: false } })));
    assert.deepEqual(patched.map((r) => r.status), ids.map(() => 200));
    for (const id of ids) {
      const post = await stack.waitForPost(org, id, undefined, 60_000);
      assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published'], JSON.stringify(post.socialAccounts));
    }
  } finally {
    clearInterval(storm);
  }
  const tweets = stack.x.tweets().filter((t) => t.authorId === xa.userId);
  assert.equal(tweets.length, 60, 'one root and one reply per post on x');
  assert.equal(new Set(tweets.map((t) => t.text)).size, 60);
  const records = stack.bsky.records(ba.did);
  assert.equal(records.length, 60, 'one root and one reply per post on bluesky');
  const events = await stack.events(org.orgId);
  for (const id of ids) {
    assert.equal(events.filter((e) => e.data.postId === id).length, 1, `exactly one event for ${id}`);
  }
  const attempts = await stack.server.db.query<{ outcome: string; n: number }>(
    'SELECT outcome, count(*)::int AS n FROM attempts WHERE org_id = $1 GROUP BY outcome',
    [org.orgId],
  );
  assert.deepEqual(attempts.rows, [{ outcome: 'published', n: 60 }], 'one attempt per destination: no target was claimed twice');
});
