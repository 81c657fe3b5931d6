// Mastodon with real `crier worker` processes killed with SIGKILL while the instance holds the answer
// to a status it has made. The status was sent with an Idempotency-Key stored at reservation: the
// worker that takes over sends it again under the same key, and the instance answers with the status
// it already made. One status on the instance, and the destination published with its id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeJpeg } from '../../helpers/media.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startMastodonStack, type Connected, type MastodonStack } from './setup.ts';

let s: MastodonStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startMastodonStack({}, { worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

const live = (account: Connected) => s.masto.statusesOf(account.remote.id).filter((status) => !status.deleted);

/** Starts a worker, waits until the instance holds `count` statuses (the stalled call took effect), kills it. */
async function killAfterStatus(account: Connected, count: number): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (live(account).length === count ? true : undefined), 60_000);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

describe('Mastodon with real worker processes', { concurrency: false }, () => {
  test('killed before the root\'s answer: the next worker sends it again under the same key, and the instance posts nothing twice', async () => {
    const account = await s.connect();
    const postId = await s.create(account, { containers: [{ content: 'posted once' }] });
    s.masto.stallAnswer('POST /api/v1/statuses', 20_000);
    await killAfterStatus(account, 1);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    const statuses = live(account);
    assert.deepEqual(statuses.map((st) => st.text), ['posted once'], 'one status on the instance');
    assert.equal(destination.platformPostId, statuses[0]!.id);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed before a reply with an image is answered: the thread completes, each status once, the image uploaded once', async () => {
    const account = await s.connect();
    const jpeg = await makeJpeg();
    const url = (await s.h.upload(s.org, 'r.jpg', jpeg, 'image/jpeg')).url as string;
    const postId = await s.create(account, { containers: [{ content: 'root' }, { content: 'reply', media: [{ url, filename: 'r.jpg' }] }, { content: 'last' }] });
    s.masto.stallAnswer('POST /api/v1/statuses', 20_000, 1);
    await killAfterStatus(account, 2);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const [root, reply, last] = live(account);
    assert.deepEqual([root!.text, reply!.text, last!.text, live(account).length], ['root', 'reply', 'last', 3]);
    assert.deepEqual([reply!.inReplyToId, last!.inReplyToId], [root!.id, root!.id]);
    assert.equal(reply!.mediaIds.length, 1);
    assert.equal(s.masto.mediaOf(account.remote.id).length, 1, 'the image was uploaded once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
