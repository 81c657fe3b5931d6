// Occurrences published through a real worker to the X emulator: the runner (its real loop, woken by
// the create) publishes a recurrence's occurrence once; stepped through three occurrences, the body's
// text and its variation are used in order, and the third (the body's text again) fails with X's own
// duplicate refusal — never a false success; deleting the recurrence then leaves the published posts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { decodeId, encodeId } from '../../src/core/ids.ts';
import { createRecurrence } from '../../src/recurrences/manage.ts';
import { materializeNext, occurrenceFetchPolicy, startRecurrenceRunner, type RecurrenceDeps } from '../../src/recurrences/runner.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let stack: PublishingStack;
let org: TestOrg;
let deps: RecurrenceDeps;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
  deps = { db: stack.server.db, logger: createLogger('silent'), fetch: occurrenceFetchPolicy(stack.server.config) };
});
after(() => stack.close());

const HOUR = 3_600_000;
const tweetsOf = (userId: string) => stack.x.tweets().filter((t) => t.authorId === userId);

async function occurrencePostIds(id: string): Promise<(string | null)[]> {
  const { rows } = await stack.server.db.query<{ post_id: number | null }>(
    'SELECT post_id FROM recurrence_occurrences WHERE recurrence_id = $1 ORDER BY occurrence_index', [decodeId(id)],
  );
  return rows.map((r) => (r.post_id === null ? null : encodeId(r.post_id)));
}

describe('recurring posts published to X', () => {
  test('the running runner creates the first occurrence when the recurrence is created, and it is published once', async () => {
    const runner = startRecurrenceRunner(deps);
    try {
      const xa = await stack.addXAccount(org);
      const res = await stack.server.request('POST', '/v1/recurrences', { key: org.key, body: { accounts: [xa.id], content: 'Daily reminder', every: { days: 1 }, count: 2 } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const [postId] = await until(async () => {
        const ids = await occurrencePostIds(res.body.data.id);
        return ids.length ? ids : undefined;
      });
      const post = await stack.waitForPost(org, postId!);
      assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
      assert.deepEqual(tweetsOf(xa.userId).map((t) => t.text), ['Daily reminder']);
      // The second is tomorrow's: created (one ahead) now that the first is due, but not published.
      const recurrence = (await stack.server.request('GET', `/v1/recurrences/${res.body.data.id}`, { key: org.key })).body.data;
      assert.equal(recurrence.occurrences.length, 2);
      assert.equal(recurrence.occurrences[1].scheduledAt, new Date(Date.parse(recurrence.startAt) + 24 * HOUR).toISOString());
      const second = (await stack.server.request('GET', `/v1/posts/${recurrence.occurrences[1].postId}`, { key: org.key })).body.post;
      assert.deepEqual(second.socialAccounts.map((a: any) => a.status), ['pending']);
      assert.equal(tweetsOf(xa.userId).length, 1);
    } finally {
      await runner.stop();
    }
  });

  test('each occurrence once, variations in order; the repeated text fails with X\'s reason; delete leaves the published posts', async () => {
    const xa = await stack.addXAccount(org);
    const real = Date.now();
    // Created as if four hours ago: the occurrences' times are past, so the worker publishes each at once.
    const created = new Date(real - 4 * HOUR);
    const startAt = new Date(real - 3 * HOUR);
    const { recurrence } = await createRecurrence(stack.server.db, org.orgId, {
      accounts: [xa.id], content: 'Recurring hello', every: { hours: 1 }, count: 3, startAt: startAt.toISOString(), variations: [{ content: 'Recurring hi' }],
    }, created, deps.fetch);
    const id = recurrence.id as string;
    const posts = [];
    for (const [i, now] of [created, startAt, new Date(startAt.getTime() + HOUR)].entries()) {
      assert.equal(await materializeNext(deps, decodeId(id)!, now), true, `occurrence ${i}`);
      const postId = (await occurrencePostIds(id))[i]!;
      posts.push(await stack.waitForPost(org, postId));
      stack.x.clock.advance(60_000);
    }
    assert.equal(await materializeNext(deps, decodeId(id)!, new Date(startAt.getTime() + 2 * HOUR)), false, 'three occurrences, no fourth');
    assert.deepEqual(posts.map((p) => p.socialAccounts[0].status), ['published', 'published', 'failed']);
    const [first] = tweetsOf(xa.userId);
    assert.deepEqual(tweetsOf(xa.userId).map((t) => t.text), ['Recurring hello', 'Recurring hi'], 'each published once, in order');
    assert.equal(posts[2].socialAccounts[0].error, `x: X refused it as a duplicate of an earlier post: https://x.com/${xa.username}/status/${first!.id} (container 1)`);

    const deleted = await stack.server.request('DELETE', `/v1/recurrences/${id}`, { key: org.key });
    assert.deepEqual(deleted.body, { success: true, cancelledPostIds: [] });
    for (const post of posts) {
      const read = await stack.server.request('GET', `/v1/posts/${post.id}`, { key: org.key });
      assert.equal(read.status, 200);
      assert.equal(read.body.post.socialAccounts[0].status, post.socialAccounts[0].status);
    }
    assert.equal(tweetsOf(xa.userId).length, 2);
  });
});
