// Threads with real `crier worker` processes killed with SIGKILL: after the root was published, while
// the reply's container is processing; in the publish call itself, after Threads published but
// before its answer arrived; and in the publishing step before the publish call. Another worker takes over from the stored checkpoint and, after a crash,
// asks Threads before doing anything: the emulator's records show nothing created or published twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../../emulators/threads/server.ts';
import { THREADS_SCOPES } from '../../../src/networks/threads/oauth.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';

let th: ThreadsEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
let account: TestAccount;
const workers = workerProcesses(() => h.stack.env);

before(async () => {
  th = await startThreadsEmulator();
  h = await startMediaPublishing({ CRIER_THREADS_BASE_URL: th.url }, { worker: false });
  th.trustCa(h.front.ca);
  th.trustCa(h.stack.media.ca);
  org = await h.server.createOrg();
  const user = th.addUser({ username: 'ada' });
  const token = th.issueLongLived(user.id, 'crier-threads', THREADS_SCOPES);
  account = await h.server.addAccount(org, 'threads', 'ada', { networkUniqueId: user.id, accessToken: token });
});
after(async () => {
  workers.killAll();
  await h.close();
  await th.close();
});

const worker = () => workers.start();

async function createPost(containers: object[]): Promise<{ postId: string; rawId: number }> {
  const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { postId: created.body.post.id, rawId: decodeId(created.body.post.id)! };
}

const publishCalls = (containerId: string) => th.calls().filter((c) => c.path.endsWith('/threads_publish') && c.params.creation_id === containerId);

describe('Threads with real worker processes', { concurrency: false }, () => {
  test('killed after the root was published, while the reply\'s container processes: resumed, nothing posted twice', async () => {
    th.stickNextContainer('the reply, held');
    const { postId, rawId } = await createPost([{ content: 'the root, once' }, { content: 'the reply, held', media: [{ url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] }]);
    const doomed = await worker();
    const held = await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      const cp = rows[0]?.checkpoint;
      return cp?.position === 1 && cp.container ? (cp.container as string) : undefined;
    }, 30_000, 'the reply container on record');
    assert.equal(th.containers().find((c) => c.id === held)!.status, 'IN_PROGRESS');
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const healthy = await worker();
    th.releaseContainer(held);
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const roots = th.published().filter((p) => p.text === 'the root, once');
    const replies = th.published().filter((p) => p.text === 'the reply, held');
    assert.equal(roots.length, 1, 'the root was published once');
    assert.equal(replies.length, 1, 'the reply was published once');
    assert.equal(replies[0]!.replyToId, roots[0]!.id);
    assert.equal(replies[0]!.containerId, held, 'the held container was resumed, not created again');
    assert.equal(th.containers().filter((c) => c.text === 'the root, once').length, 1);
    assert.equal(th.containers().filter((c) => c.text === 'the reply, held').length, 1);
    assert.equal(post.socialAccounts[0].platformPostId, roots[0]!.id);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed in the publish call after Threads published: the next worker finds the post and does not publish again', async () => {
    th.delayNextPublishAnswer(30_000);
    const { postId } = await createPost([{ content: 'published, answer lost' }]);
    const doomed = await worker();
    const published = await until(() => th.published().find((p) => p.text === 'published, answer lost'), 30_000, 'the post on Threads');
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const healthy = await worker();
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(post.socialAccounts[0].platformPostId, published.id);
    assert.equal(post.socialAccounts[0].platformPostUrl, published.permalink);
    assert.equal(th.published().filter((p) => p.text === 'published, answer lost').length, 1, 'published once');
    // The emulator logs a call once it has answered: the killed worker's call is still unanswered, so
    // any logged call would be a second one.
    assert.equal(publishCalls(published.containerId).length, 0, 'threads_publish was not called again');
    assert.equal(th.containers().filter((c) => c.text === 'published, answer lost').length, 1, 'one container');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed in the publishing step before threads_publish: the container is FINISHED, not PUBLISHED, so the next worker publishes it, once', async () => {
    // The limit check that precedes the publish call hangs: the worker dies with the container ready.
    th.failNext({ status: 500, method: 'GET', path: /\/threads_publishing_limit$/, delayMs: 30_000 });
    const { postId, rawId } = await createPost([{ content: 'ready, not yet published' }]);
    const doomed = await worker();
    const ready = await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      return rows[0]?.checkpoint?.ready ? (rows[0].checkpoint.container as string) : undefined;
    }, 30_000, 'the ready checkpoint');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    assert.equal(th.published().filter((p) => p.text === 'ready, not yet published').length, 0);
    const callsAtKill = th.calls().length;

    const healthy = await worker();
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const published = th.published().filter((p) => p.text === 'ready, not yet published');
    assert.equal(published.length, 1, 'published once');
    assert.equal(published[0]!.containerId, ready, 'the ready container, not a new one');
    // After the crash the container's status was asked (reconcile) before publishing: it said FINISHED.
    assert.ok(th.calls().slice(callsAtKill).some((c) => c.method === 'GET' && c.path.endsWith(`/${ready}`) && c.params.fields === 'status,error_message' && c.status === 200), 'reconciled');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
