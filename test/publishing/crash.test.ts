// Crashes with real processes: a `crier worker` kills itself with SIGKILL at a chosen point (the
// CRIER_FAILPOINT switch), another worker takes over once the dead one's heartbeat lapses, and
// nothing is lost or published twice — the emulators' record counts prove it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { startCrierProcess, type Started } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;
const children: Started[] = [];

before(async () => {
  stack = await startPublishingStack({}, { worker: false });
  org = await stack.server.createOrg();
});
after(async () => {
  for (const child of children) child.child.kill('SIGKILL');
  await stack.close();
});

function worker(failpoint?: string): Started {
  const child = startCrierProcess(['worker'], { ...stack.env, ...(failpoint ? { CRIER_FAILPOINT: failpoint } : {}) });
  children.push(child);
  return child;
}

async function create(body: object): Promise<string> {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.post.id;
}

/**
 * Runs a worker armed with `failpoint` until it kills itself, then `meanwhile` (what happens before
 * anyone picks the job up again), then a healthy worker to the end.
 */
async function crashThenRecover(failpoint: string, postId: string, meanwhile: () => Promise<void> = async () => {}) {
  const doomed = worker(failpoint);
  const exit = await Promise.race([
    new Promise<string>((resolve) => doomed.child.once('exit', (_code, signal) => resolve(String(signal)))),
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000)),
  ]);
  assert.equal(exit, 'SIGKILL', `the worker should have died at ${failpoint}; output: ${doomed.output()}`);
  await meanwhile();
  const healthy = worker();
  try {
    await healthy.waitFor(/Crier is running/);
    return await stack.waitForPost(org, postId, undefined, 60_000);
  } finally {
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  }
}

describe('a worker killed with SIGKILL', { concurrency: false }, () => {
  test('(a) right after claiming the job: the job comes back and publishes once', async () => {
    const account = await stack.addBlueskyAccount(org);
    const postId = await create({ accounts: [account.id], containers: [{ content: 'crash a root' }, { content: 'crash a reply' }] });
    const post = await crashThenRecover('after-claim', postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.deepEqual(stack.bsky.records(account.did).map((r) => (r.value as any).text), ['crash a root', 'crash a reply']);
  });

  test('(b) after committing the attempt, before calling the network: published once', async () => {
    const account = await stack.addBlueskyAccount(org);
    const postId = await create({ accounts: [account.id], content: 'crash b' });
    const post = await crashThenRecover('after-attempt', postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(stack.bsky.records(account.did).length, 1);
    const attempts = await stack.server.db.query('SELECT outcome FROM attempts WHERE target_id = (SELECT id FROM targets WHERE account_id = (SELECT id FROM social_accounts WHERE network_unique_id = $1)) ORDER BY id', [account.did]);
    assert.deepEqual(attempts.rows.map((r) => r.outcome), ['superseded', 'published'], 'the dead attempt is fenced off, the next one publishes');
  });

  test('(c) bluesky: after the network accepted the root, before recording it: reconciled by record key, never reposted', async () => {
    const account = await stack.addBlueskyAccount(org);
    const postId = await create({ accounts: [account.id], containers: [{ content: 'crash c root' }, { content: 'crash c reply' }] });
    const post = await crashThenRecover('after-network', postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const records = stack.bsky.records(account.did);
    assert.deepEqual(records.map((r) => (r.value as any).text), ['crash c root', 'crash c reply'], 'the root exists once');
    assert.equal(post.socialAccounts[0].platformPostId, records[0]!.uri);
    assert.equal((records[1]!.value as any).reply.root.uri, records[0]!.uri);
    const events = (await stack.events(org.orgId)).filter((e) => e.data.postId === postId);
    assert.deepEqual(events.map((e) => e.type), ['post.published']);
  });

  test('(c) x: after the network accepted the tweet, before recording it: found in the timeline, never reposted', async () => {
    const account = await stack.addXAccount(org);
    const postId = await create({ accounts: [account.id], content: 'crash c on x' });
    const post = await crashThenRecover('after-network', postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const tweets = stack.x.tweets().filter((t) => t.authorId === account.userId);
    assert.equal(tweets.length, 1);
    assert.equal(post.socialAccounts[0].platformPostId, tweets[0]!.id);
  });

  test('(c) x thread: 150 other posts to the account before the retry: the root is found by paging the timeline, the reply posted once', async () => {
    const account = await stack.addXAccount(org);
    const postId = await create({ accounts: [account.id], containers: [{ content: 'crash c x root' }, { content: 'crash c x reply' }] });
    const post = await crashThenRecover('after-network', postId, async () => {
      // More than a page of X's timeline (100) lands on top of the root. X's per-user window allows 100
      // posts per 15 minutes: its clock moves on instead of the test waiting.
      for (let i = 0; i < 150; i++) {
        if (i === 90) stack.x.clock.advance(15 * 60_000);
        const res = await fetch(`${stack.x.url}/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: `meanwhile ${i}` }) });
        assert.equal(res.status, 201, await res.text());
      }
    });
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const ours = stack.x.tweets().filter((t) => t.authorId === account.userId && t.text.startsWith('crash c x'));
    assert.deepEqual(ours.map((t) => t.text), ['crash c x root', 'crash c x reply'], 'the root once, the reply once');
    assert.equal(post.socialAccounts[0].platformPostId, ours[0]!.id);
    assert.equal(ours[1]!.inReplyToTweetId, ours[0]!.id);
    const events = (await stack.events(org.orgId)).filter((e) => e.data.postId === postId);
    assert.deepEqual(events.map((e) => e.type), ['post.published']);
  });

  test('(c) x: when X cannot list the timeline after the crash, the destination ends unknown, never failed, never reposted', async () => {
    const account = await stack.addXAccount(org);
    const postId = await create({ accounts: [account.id], content: 'crash c x unknowable' });
    const post = await crashThenRecover('after-network', postId, async () => {
      stack.x.failNext({ method: 'GET', path: `/2/users/${account.userId}/tweets`, status: 503, times: 10 });
    });
    assert.equal(post.socialAccounts[0].status, 'unknown');
    assert.match(post.socialAccounts[0].error, /^x: could not tell whether container 1 is already posted .*check the account before posting it again/);
    assert.equal(stack.x.tweets().filter((t) => t.authorId === account.userId).length, 1, 'posted once, by the crashed attempt');
  });
});
