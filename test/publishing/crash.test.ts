// Crashes with real processes: a `crier worker` kills itself with SIGKILL at a chosen point (the
// CRIER_FAILPOINT switch), another worker takes over once the dead one's lease lapses, and nothing
// is lost or published twice — the emulators' record counts prove it. Failpoints: after-claim (a
// batch claimed, its attempts committed), after-attempt (a container reserved, right before the
// network call), after-network (the network accepted a container, Crier has not recorded it).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
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

function worker(failpoint?: string, env: Record<string, string> = {}): Started {
  const child = startCrierProcess(['worker'], { ...stack.env, ...env, ...(failpoint ? { CRIER_FAILPOINT: failpoint } : {}) });
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
 * another worker takes the target over), then a healthy worker to the end.
 */
async function crashThenRecover(failpoint: string, postId: string, meanwhile: () => Promise<void> = async () => {}) {
  await crash(failpoint);
  await meanwhile();
  return recover(() => stack.waitForPost(org, postId, undefined, 60_000));
}

/** Runs a worker armed with `failpoint` until it kills itself. */
async function crash(failpoint: string, env: Record<string, string> = {}): Promise<void> {
  const doomed = worker(failpoint, env);
  const exit = await Promise.race([
    new Promise<string>((resolve) => doomed.child.once('exit', (_code, signal) => resolve(String(signal)))),
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000)),
  ]);
  assert.equal(exit, 'SIGKILL', `the worker should have died at ${failpoint}; output: ${doomed.output()}`);
}

/** A healthy worker, until `done` resolves. */
async function recover<T>(done: () => Promise<T>): Promise<T> {
  const healthy = worker();
  try {
    await healthy.waitFor(/Crier is running/);
    return await done();
  } finally {
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  }
}

describe('a worker killed with SIGKILL', { concurrency: false }, () => {
  test('(a) right after claiming: the target comes back to another worker and publishes once', async () => {
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

describe('a worker killed with SIGKILL while it holds a batch of 200 claims', { concurrency: false }, () => {
  /**
   * 100 posts, each to one of 10 X accounts and one of 10 Bluesky accounts: 200 destinations, made due
   * together while no worker runs, so that the doomed worker's first claim takes them all.
   */
  async function dueBatch(tag: string) {
    const xs = await Promise.all(Array.from({ length: 10 }, () => stack.addXAccount(org)));
    const bs = [];
    for (let i = 0; i < 10; i++) bs.push(await stack.addBlueskyAccount(org));
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await create({ accounts: [xs[i % 10]!.id, bs[i % 10]!.id], content: `${tag} ${i}`, isDraft: true }));
    for (const id of ids) {
      const live = await stack.server.request('PATCH', `/v1/posts/${id}`, { key: org.key, body: { isDraft: false } });
      assert.equal(live.status, 200, JSON.stringify(live.body));
    }
    return { xs, bs, ids };
  }

  async function allPublished(ids: string[]) {
    const posts = [];
    for (const id of ids) posts.push(await stack.waitForPost(org, id, undefined, 90_000));
    return posts;
  }

  function assertOnceEach(tag: string, xs: { userId: string }[], bs: { did: string }[]) {
    const xUsers = new Set(xs.map((a) => a.userId));
    const tweets = stack.x.tweets().filter((t) => xUsers.has(t.authorId)).map((t) => t.text).sort();
    const records = bs.flatMap((b) => stack.bsky.records(b.did)).map((r) => (r.value as any).text).sort();
    const expected = Array.from({ length: 100 }, (_, i) => `${tag} ${i}`).sort();
    assert.deepEqual(tweets, expected, 'every post once on x');
    assert.deepEqual(records, expected, 'every post once on bluesky');
  }

  async function attemptsByTarget(ids: string[]): Promise<string[][]> {
    const { rows } = await stack.server.db.query<{ outcomes: string[] }>(
      `SELECT array_agg(a.outcome ORDER BY a.id) AS outcomes FROM targets t JOIN attempts a ON a.target_id = t.id
        WHERE t.post_id = ANY($1::bigint[]) GROUP BY t.id`,
      [ids.map((id) => decodeId(id))],
    );
    return rows.map((r) => r.outcomes);
  }

  test('right after claiming: all 200 were claimed in one batch, none is lost, each publishes once', async () => {
    const { xs, bs, ids } = await dueBatch('batch a');
    await crash('after-claim', { CRIER_PUBLISH_CONCURRENCY: '256' });
    const held = await stack.server.db.query<{ status: string; workers: number; n: number }>(
      `SELECT t.status, count(DISTINCT a.worker_id)::int AS workers, count(*)::int AS n FROM targets t JOIN attempts a ON a.id = t.current_attempt_id
        WHERE t.post_id = ANY($1::bigint[]) AND a.finished_at IS NULL GROUP BY t.status`,
      [ids.map((id) => decodeId(id))],
    );
    assert.deepEqual(held.rows, [{ status: 'publishing', workers: 1, n: 200 }], 'the dead worker held all 200');
    const posts = await recover(() => allPublished(ids));
    for (const post of posts) assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published'], JSON.stringify(post.socialAccounts));
    assertOnceEach('batch a', xs, bs);
    const attempts = await attemptsByTarget(ids);
    assert.equal(attempts.length, 200);
    for (const outcomes of attempts) assert.deepEqual(outcomes, ['superseded', 'published']);
    const events = (await stack.events(org.orgId)).filter((e) => ids.includes(e.data.postId));
    assert.deepEqual(events.map((e) => e.type), ids.map(() => 'post.published'), 'one event per post');
  });

  test('after the network accepted the first of 200 in flight: the others are reconciled, nothing is posted twice', async () => {
    const { xs, bs, ids } = await dueBatch('batch c');
    await crash('after-network', { CRIER_PUBLISH_CONCURRENCY: '256' });
    // What the crash left: containers on the networks that Crier knows only as reserved.
    const parts = await stack.server.db.query<{ status: string; n: number }>(
      'SELECT p.status, count(*)::int AS n FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = ANY($1::bigint[]) GROUP BY p.status',
      [ids.map((id) => decodeId(id))],
    );
    const reserved = parts.rows.find((r) => r.status === 'reserved')?.n ?? 0;
    const xUsers = new Set(xs.map((a) => a.userId));
    const onNetworks = stack.x.tweets().filter((t) => xUsers.has(t.authorId)).length + bs.flatMap((b) => stack.bsky.records(b.did)).length;
    assert.equal(parts.rows.find((r) => r.status === 'published'), undefined, 'nothing was recorded as published');
    assert.ok(onNetworks >= 1 && reserved >= onNetworks, `${onNetworks} posted, ${reserved} reserved: the recovery has posts to reconcile`);
    const posts = await recover(() => allPublished(ids));
    for (const post of posts) assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published'], JSON.stringify(post.socialAccounts));
    assertOnceEach('batch c', xs, bs);
    const attempts = await attemptsByTarget(ids);
    assert.equal(attempts.length, 200);
    for (const outcomes of attempts) assert.deepEqual(outcomes, ['superseded', 'published']);
    const events = (await stack.events(org.orgId)).filter((e) => ids.includes(e.data.postId));
    assert.deepEqual(events.map((e) => e.type), ids.map(() => 'post.published'), 'one event per post');
  });
});
