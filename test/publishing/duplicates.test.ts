// A network's refusal as a duplicate is never a publication of someone else's post (issue 33): the
// post X names is adopted only when it came from this destination's own attempt, and no network post
// is ever owned by two destinations — the unique index holds under racing claims too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { decodeId } from '../../src/core/ids.ts';
import { claimNetworkPost } from '../../src/publishing/parts.ts';

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
});
after(() => stack.close());

const publish = async (body: object) => {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return stack.waitForPost(org, res.body.post.id);
};

const tweetsOf = (userId: string) => stack.x.tweets().filter((t) => t.authorId === userId);

describe('x: a duplicate refusal', () => {
  test("the README's walk-through: an image post with an earlier thread's text fails with X's reason, naming the earlier post", async () => {
    const xa = await stack.addXAccount(org);
    const thread = await publish({ accounts: [xa.id], containers: [{ content: 'Hello from Crier' }, { content: 'and a reply' }] });
    assert.equal(thread.socialAccounts[0].status, 'published', thread.socialAccounts[0].error);
    const image = await publish({ accounts: [xa.id], containers: [{ content: 'Hello from Crier', media: [{ url: `${stack.media.url}/cat.png`, filename: 'cat.png' }] }] });
    const onX = image.socialAccounts[0];
    assert.equal(onX.status, 'failed');
    assert.equal(onX.platformPostId, null);
    assert.equal(onX.error, `x: X refused it as a duplicate of an earlier post: https://x.com/${xa.username}/status/${thread.socialAccounts[0].platformPostId} (container 1)`);
    assert.equal(tweetsOf(xa.userId).length, 2, 'the thread\'s two posts, nothing more');
  });

  test('the same text twice in a row: the second fails, the first keeps its post alone', async () => {
    const xa = await stack.addXAccount(org);
    const first = await publish({ accounts: [xa.id], content: 'said once' });
    const second = await publish({ accounts: [xa.id], content: 'said once' });
    assert.equal(first.socialAccounts[0].status, 'published');
    assert.equal(second.socialAccounts[0].status, 'failed');
    assert.match(second.socialAccounts[0].error, new RegExp(`duplicate of an earlier post: https://x.com/${xa.username}/status/${first.socialAccounts[0].platformPostId} `));
    const { rows } = await stack.server.db.query('SELECT count(*)::int AS n FROM target_parts WHERE platform_id = $1', [first.socialAccounts[0].platformPostId]);
    assert.equal(rows[0].n, 1, 'one destination owns the post');
  });

  test('a post made outside Crier a minute before: failed with the reason, never published with it', async () => {
    const xa = await stack.addXAccount(org);
    stack.x.clock.advance(-60_000);
    const res = await fetch(`${stack.x.url}/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${xa.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'typed by hand' }) });
    stack.x.clock.advance(60_000);
    const existing = (await res.json()).data.id;
    const post = await publish({ accounts: [xa.id], content: 'typed by hand' });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.equal(post.socialAccounts[0].error, `x: X refused it as a duplicate of an earlier post: https://x.com/${xa.username}/status/${existing} (container 1)`);
  });

  test('a duplicate X names but Crier cannot find: failed with the reason, not unknown', async () => {
    const xa = await stack.addXAccount(org);
    stack.x.failNext({ status: 403, method: 'POST', path: '/2/tweets', body: { title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', status: 403 } });
    const post = await publish({ accounts: [xa.id], content: 'a duplicate of something unseen' });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.equal(post.socialAccounts[0].error, 'x: X refused it as a duplicate of an earlier post on the account (container 1)');
    assert.equal(tweetsOf(xa.userId).length, 0);
  });

  test("a second thread repeating an earlier thread's reply: failed on container 2 with the reason, never unknown", async () => {
    const xa = await stack.addXAccount(org);
    const one = await publish({ accounts: [xa.id], containers: [{ content: 'first root' }, { content: 'and a reply' }] });
    const two = await publish({ accounts: [xa.id], containers: [{ content: 'second root' }, { content: 'and a reply' }] });
    assert.equal(one.socialAccounts[0].status, 'published');
    const replyOfOne = tweetsOf(xa.userId).find((t) => t.text === 'and a reply')!;
    assert.equal(two.socialAccounts[0].status, 'failed');
    assert.equal(two.socialAccounts[0].error, `x: X refused it as a duplicate of an earlier post: https://x.com/${xa.username}/status/${replyOfOne.id} (container 2)`);
    assert.deepEqual(tweetsOf(xa.userId).map((t) => t.text), ['first root', 'and a reply', 'second root']);
  });

  test('its own post, whose answer was lost and which the timeline did not show yet, is adopted: published once, with its id', async () => {
    const xa = await stack.addXAccount(org);
    // The first call makes the post but its answer is lost; the next attempt's search misses it (X's
    // timeline lags); sent again, X refuses it as a duplicate of the post the first call made.
    stack.x.failNext({ status: 503, method: 'POST', path: '/2/tweets', afterHandling: true });
    stack.x.failNext({ status: 200, method: 'GET', path: `/2/users/${xa.userId}/tweets`, body: { meta: { result_count: 0 } } });
    const post = await publish({ accounts: [xa.id], containers: [{ content: 'lost on the way back', media: [{ url: `${stack.media.url}/cat.png`, filename: 'cat.png' }] }] });
    const tweets = tweetsOf(xa.userId);
    assert.equal(tweets.length, 1);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(post.socialAccounts[0].platformPostId, tweets[0]!.id);
    const posted = stack.x.calls().filter((c) => c.method === 'POST' && c.path === '/2/tweets' && c.userId === xa.userId).map((c) => c.status);
    assert.deepEqual(posted, [503, 403], 'sent twice, refused the second time');
  });
});

describe('one network post, one owner', () => {
  test('two destinations claiming the same post at once: exactly one gets it, the other is refused', async () => {
    const xa = await stack.addXAccount(org);
    const a = await publish({ accounts: [xa.id], content: 'race one' });
    const b = await publish({ accounts: [xa.id], content: 'race two' });
    const targets = await Promise.all([a, b].map(async (p) => {
      const { rows } = await stack.server.db.query('SELECT id FROM targets WHERE post_id = $1', [decodeId(p.id)]);
      return Number(rows[0].id);
    }));
    for (let round = 0; round < 20; round++) {
      const contested = { platformId: `contested-${round}`, url: `https://x.com/i/status/contested-${round}` };
      const position = 5 + round;
      const results = await Promise.all(targets.map((targetId) => claimNetworkPost(stack.server.db, { orgId: org.orgId, accountId: xa.rawId, targetId, position, ref: contested })));
      assert.deepEqual(results.filter(Boolean).length, 1, `round ${round}: ${results}`);
    }
    const { rows } = await stack.server.db.query(`SELECT platform_id, count(*)::int AS n FROM target_parts WHERE platform_id LIKE 'contested-%' GROUP BY 1`);
    assert.equal(rows.length, 20);
    assert.ok(rows.every((r) => r.n === 1));
  });

  test('a post id the network hands out a second time (an emulator restarted empty) is recorded as answered, never stuck, but owns nothing', async () => {
    const xa = await stack.addXAccount(org);
    const a = await publish({ accounts: [xa.id], content: 'owned once' });
    const b = await publish({ accounts: [xa.id], content: 'owned twice?' });
    const { rows } = await stack.server.db.query('SELECT t.id FROM targets t WHERE t.post_id = $1', [decodeId(b.id)]);
    await stack.server.db.query('UPDATE target_parts SET platform_id = $1 WHERE target_id = $2', [a.socialAccounts[0].platformPostId, rows[0].id]);
    const owners = await stack.server.db.query('SELECT target_id, account_id FROM target_parts WHERE platform_id = $1 ORDER BY target_id', [a.socialAccounts[0].platformPostId]);
    assert.equal(owners.rows.length, 2);
    assert.deepEqual(owners.rows.map((r) => r.account_id === null), [false, true], 'the first destination owns it, the second only records it');
    const claimed = await claimNetworkPost(stack.server.db, { orgId: org.orgId, accountId: xa.rawId, targetId: Number(rows[0].id), position: 3, ref: { platformId: a.socialAccounts[0].platformPostId, url: '' } });
    assert.equal(claimed, false, 'and can never claim it');
  });

  test('one destination may hold its post at several positions (a network that stands its post for the later containers)', async () => {
    const xa = await stack.addXAccount(org);
    const a = await publish({ accounts: [xa.id], content: 'one post, two positions' });
    const { rows } = await stack.server.db.query('SELECT id FROM targets WHERE post_id = $1', [decodeId(a.id)]);
    const ref = { platformId: a.socialAccounts[0].platformPostId, url: a.socialAccounts[0].platformPostUrl };
    assert.equal(await claimNetworkPost(stack.server.db, { orgId: org.orgId, accountId: xa.rawId, targetId: Number(rows[0].id), position: 1, ref }), true);
  });
});
