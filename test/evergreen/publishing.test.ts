// Evergreen posts published through a real worker to the X emulator: an item re-shared three times
// (gap 0) goes out with its own text, then its variation, and the third time — its own text again, no
// variation left — X refuses it as a duplicate and the destination fails with X's own reason, never a
// false success. Each re-share is its own post with its own outcome.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { decodeId, encodeId } from '../../src/core/ids.ts';
import { createCollection } from '../../src/evergreen/manage.ts';
import { runNext, type EvergreenDeps } from '../../src/evergreen/runner.ts';
import { occurrenceFetchPolicy } from '../../src/recurrences/runner.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import type { TestOrg } from '../helpers/harness.ts';

let stack: PublishingStack;
let org: TestOrg;
let deps: EvergreenDeps;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
  deps = { db: stack.server.db, logger: createLogger('silent'), fetch: occurrenceFetchPolicy(stack.server.config) };
});
after(() => stack.close());

const HOUR = 3_600_000;
const tweetsOf = (userId: string) => stack.x.tweets().filter((t) => t.authorId === userId);

describe('evergreen posts published to X', () => {
  test("the item's text, then its variation; the repeated text fails with X's reason; each post its own outcome", async () => {
    const xa = await stack.addXAccount(org);
    const real = Date.now();
    // Created as if four hours ago, hourly: the posts' times are past, so the worker publishes each at once.
    const created = new Date(real - 4 * HOUR);
    const startAt = new Date(real - 3 * HOUR);
    const { data } = await createCollection(stack.server.db, org.orgId, {
      name: 'Evergreen on X', accounts: [xa.id], every: { hours: 1 }, startAt: startAt.toISOString(), minGapDays: 0,
      items: [{ content: 'Evergreen hello', variations: [{ content: 'Evergreen hi' }] }],
    }, created, deps.fetch);
    const id = decodeId(data.id)!;
    const posts = [];
    for (const [i, now] of [created, startAt, new Date(startAt.getTime() + HOUR)].entries()) {
      assert.equal(await runNext(deps, id, now), true, `turn ${i}`);
      const { rows } = await stack.server.db.query<{ post_id: number }>('SELECT post_id::int FROM evergreen_posts WHERE collection_id = $1 AND run = $2', [id, i]);
      posts.push(await stack.waitForPost(org, encodeId(rows[0]!.post_id)));
      stack.x.clock.advance(60_000);
    }
    assert.deepEqual(posts.map((p) => p.socialAccounts[0].status), ['published', 'published', 'failed']);
    const [first] = tweetsOf(xa.userId);
    assert.deepEqual(tweetsOf(xa.userId).map((t) => t.text), ['Evergreen hello', 'Evergreen hi'], 'each published once, in turn');
    assert.equal(posts[2].socialAccounts[0].error, `x: X refused it as a duplicate of an earlier post: https://x.com/${xa.username}/status/${first!.id} (container 1)`);

    const collection = (await stack.server.request('GET', `/v1/evergreen-collections/${data.id}`, { key: org.key })).body.data;
    assert.deepEqual(collection.latestPosts.map((p: any) => [p.postId, p.variation, p.refused]), [
      [posts[2].id, 0, null], [posts[1].id, 1, null], [posts[0].id, 0, null],
    ], 'the create path accepted all three: the refusal is X\'s, on the third post');
    assert.deepEqual(collection.items.map((i: any) => i.timesUsed), [3]);
  });
});
