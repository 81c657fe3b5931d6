// A network's refusal of a call it certainly did not carry out (a 429) is no failed try of the post:
// it is not counted against CRIER_PUBLISH_MAX_ATTEMPTS (1 here), and the destination goes again at the
// time the network stated; after CRIER_PUBLISH_MAX_REFUSALS (3 here) refusals it fails with the
// network's reason. The network is the X emulator over real HTTP; its refusals are injected faults.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack({ CRIER_PUBLISH_MAX_ATTEMPTS: '1', CRIER_PUBLISH_MAX_REFUSALS: '3' });
  org = await stack.server.createOrg();
});
after(() => stack.close());

async function create(accountId: string, content: string): Promise<string> {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [accountId], content } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.post.id as string;
}

/** X's 429 on creating a tweet, its window reset in a second (the emulator's own answer, headers as X sends them). */
function refuseTweets(times: number): void {
  const reset = String(Math.floor(Date.now() / 1000) + 1);
  stack.x.failNext({ status: 429, method: 'POST', path: '/2/tweets', times, headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset } });
}

const targetOf = async (accountRawId: number) => (await stack.server.db.query(
  `SELECT t.attempt_count, t.refusals, array(SELECT a.outcome FROM attempts a WHERE a.target_id = t.id ORDER BY a.id) AS outcomes
     FROM targets t WHERE t.account_id = $1`, [accountRawId])).rows;

describe('refusals', () => {
  test('refused twice with one attempt allowed: it waits each time and publishes once', async () => {
    const xa = await stack.addXAccount(org);
    refuseTweets(2);
    const started = Date.now();
    const post = await stack.waitForPost(org, await create(xa.id, 'after two refusals'));
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(post.socialAccounts[0].error, null);
    assert.ok(Date.now() - started >= 2000, 'each refusal waited at least a second');
    assert.equal(stack.x.tweets().filter((t) => t.authorId === xa.userId).length, 1);
    assert.deepEqual(await targetOf(xa.rawId), [{ attempt_count: 3, refusals: 2, outcomes: ['retry', 'retry', 'published'] }]);
  });

  test('refused three times: failed with the network\'s reason and the count, nothing on the network', async () => {
    const xa = await stack.addXAccount(org);
    refuseTweets(3);
    const post = await stack.waitForPost(org, await create(xa.id, 'refused every time'));
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^x: .*\(gave up after the network refused 3 times\)$/);
    assert.equal(stack.x.tweets().filter((t) => t.authorId === xa.userId).length, 0);
    assert.deepEqual(await targetOf(xa.rawId), [{ attempt_count: 3, refusals: 2, outcomes: ['retry', 'retry', 'failed'] }]);
  });
});
