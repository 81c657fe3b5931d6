// Reddit with real `crier worker` processes killed with SIGKILL: after Reddit made the submission but
// before its answer reached the worker, and likewise for the first comment. Another worker reconciles
// from what Reddit shows (the account's submissions, the post's comments) before posting anything:
// the emulator's records show nothing posted twice, and the comments in order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../../emulators/reddit/server.ts';
import { REDDIT_SCOPES } from '../../../src/networks/reddit/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';

let rd: RedditEmulator;
let stack: PublishingStack;
let org: TestOrg;
let account: TestAccount;
const workers = workerProcesses(() => stack.env);

before(async () => {
  rd = await startRedditEmulator();
  rd.addSubreddit({ name: 'crashes' });
  stack = await startPublishingStack({ CRIER_REDDIT_BASE_URL: rd.url }, { worker: false });
  org = await stack.server.createOrg();
  const user = rd.addUser({ name: 'ada_l' });
  const token = rd.oauth.issue(user.id, 'crier-reddit', REDDIT_SCOPES).accessToken;
  account = await stack.server.addAccount(org, 'reddit', 'ada_l', { networkUniqueId: `t2_${user.id}`, accessToken: token });
});
after(async () => {
  workers.killAll();
  await stack.close();
  await rd.close();
});

async function createThread(title: string, containers: string[]): Promise<string> {
  const body = { accounts: [account.id], containers: containers.map((content) => ({ content })), reddit: { subreddit: 'crashes', title } };
  const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.post.id;
}

async function crashWhen(done: () => boolean): Promise<void> {
  const doomed = await workers.start();
  await until(() => done() || undefined, 30_000, 'Reddit to have it');
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

describe('Reddit with real worker processes', { concurrency: false }, () => {
  test('killed after Reddit made the submission, before its answer: the next worker finds it and only adds the comments', async () => {
    rd.delayNextAnswer('POST', '/api/submit', 30_000);
    const postId = await createThread('Answer lost', ['root text', 'comment A', 'comment B']);
    await crashWhen(() => rd.submissions().some((s) => s.title === 'Answer lost'));

    const healthy = await workers.start();
    const post = await stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const subs = rd.submissions().filter((s) => s.title === 'Answer lost');
    assert.equal(subs.length, 1, 'submitted once');
    assert.equal(post.socialAccounts[0].platformPostId, subs[0]!.name);
    assert.deepEqual(rd.comments(subs[0]!.id).map((c) => c.body), ['comment A', 'comment B']);
    assert.ok(rd.requests().some((r) => r.method === 'GET' && r.path === '/user/ada_l/submitted'), 'reconciled from the account\'s submissions');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed after Reddit made the first comment, before its answer: it is found, not posted again, and the second follows', async () => {
    rd.delayNextAnswer('POST', '/api/comment', 30_000);
    const postId = await createThread('Comment answer lost', ['root', 'first', 'second']);
    const commented = () => rd.submissions().filter((s) => s.title === 'Comment answer lost').some((s) => rd.comments(s.id).length > 0);
    await crashWhen(commented);

    const healthy = await workers.start();
    const post = await stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const subs = rd.submissions().filter((s) => s.title === 'Comment answer lost');
    assert.equal(subs.length, 1);
    assert.deepEqual(rd.comments(subs[0]!.id).map((c) => c.body), ['first', 'second'], 'each comment once, in order');
    assert.ok(rd.requests().some((r) => r.method === 'GET' && r.path === `/comments/${subs[0]!.id}`), 'reconciled from the post\'s comments');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
