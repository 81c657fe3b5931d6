// X's declared quota (100 tweets per 15 minutes per account) against the X emulator's own limit, which
// answers 429 past 100 POST /2/tweets per user per window as X does: a burst of 101 posts publishes
// 100 and holds the last one back for the next window, and X never refuses anything.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
});
after(() => stack.close());

test('101 posts at once to one X account: 100 published, the 101st pending until the window has room, no 429', async () => {
  const account = await stack.addXAccount(org);
  const created = Date.now();
  const ids = await Promise.all(Array.from({ length: 101 }, async (_, i) => {
    const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: `post ${i}` } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.post.id as string;
  }));
  const published = async () => (await stack.server.db.query(`SELECT count(*)::int AS n FROM targets WHERE account_id = $1 AND status = 'published'`, [account.rawId])).rows[0].n;
  await until(async () => ((await published()) === 100 ? true : undefined), 30_000, '100 published');
  // The last one is back in the queue, due a window after the burst, having waited once.
  await until(async () => ((await stack.server.db.query(`SELECT 1 FROM targets WHERE account_id = $1 AND status = 'pending' AND due_at IS NOT NULL`, [account.rawId])).rowCount === 1 ? true : undefined), 10_000, 'the 101st back in the queue');
  const held = (await stack.server.db.query(
    `SELECT t.status, t.due_at, (SELECT array_agg(a.outcome ORDER BY a.id) FROM attempts a WHERE a.target_id = t.id) AS outcomes
       FROM targets t WHERE t.account_id = $1 AND t.status <> 'published'`,
    [account.rawId],
  )).rows;
  assert.equal(held.length, 1);
  assert.equal(held[0].status, 'pending');
  assert.deepEqual(held[0].outcomes, ['waiting']);
  const dueIn = held[0].due_at.getTime() - created;
  assert.ok(dueIn > 14 * 60_000 && dueIn < 16 * 60_000, `due ${dueIn} ms after the burst`);
  const outcomes = (await stack.server.db.query(`SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.account_id = $1`, [account.rawId])).rows.map((r) => r.outcome);
  assert.ok(!outcomes.includes('retry'), 'X refused nothing');
  assert.equal(stack.x.tweets().filter((t) => t.authorId === account.userId).length, 100);
  assert.equal(ids.length, 101);
});
