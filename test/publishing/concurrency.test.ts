// Several workers on one database, and duplicate jobs for the same destination (what pg-boss does
// when it thinks a worker died): every destination is published exactly once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeId } from '../../src/ids.ts';
import { enqueueInTransaction } from '../../src/queue/boss.ts';
import { PUBLISH_QUEUE } from '../../src/queue/queues.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack({}, { worker: false });
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('two workers, 30 posts to two networks, each job queued three times: one publication per destination', async () => {
  const xa = await stack.addXAccount(org);
  const ba = await stack.addBlueskyAccount(org);
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [xa.id, ba.id], containers: [{ content: `post ${i}` }, { content: `reply ${i}` }], isDraft: true } });
    ids.push(res.body.post.id);
  }
  // Make them live, then add two duplicates of every job of the new generation.
  for (const id of ids) assert.equal((await stack.server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { isDraft: false } })).status, 200);
  const { rows } = await stack.server.db.query<{ data: object }>("SELECT data FROM pgboss.job WHERE name = 'publish'");
  assert.equal(rows.length, 60);
  await enqueueInTransaction(stack.server.boss, stack.server.db, PUBLISH_QUEUE, [...rows, ...rows].map((r) => ({ data: r.data })));

  await Promise.all([stack.startWorker(), stack.startWorker()]);
  for (const id of ids) {
    const post = await stack.waitForPost(org, id, undefined, 60_000);
    assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published'], JSON.stringify(post.socialAccounts));
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
  const attempts = await stack.server.db.query("SELECT count(*)::int AS n FROM attempts WHERE outcome = 'published'");
  assert.equal(attempts.rows[0].n, 60);
  assert.ok(ids.every((id) => decodeId(id)));
});
