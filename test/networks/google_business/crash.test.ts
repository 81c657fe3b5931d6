// Google Business Profile with real `crier worker` processes killed with SIGKILL: after Google made the
// localPost but before its answer reached the worker, and while Google was still reviewing a post.
// Another worker finds the post among the location's localPosts (or reads it again from the stored
// checkpoint) instead of posting it again: the emulator holds exactly one post.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { startGbpStack, type GbpStack } from './setup.ts';

let s: GbpStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startGbpStack({ worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

async function crashWhen(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const doomed = await workers.start();
  await until(async () => (await done()) || undefined, 30_000, what);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

const checkpointOf = async (postId: string) => (await s.h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [decodeId(postId)])).rows[0]?.checkpoint;

describe('Google Business Profile with real worker processes', { concurrency: false }, () => {
  test('killed after Google made the post, before its answer: the next worker finds it in the location\'s posts; one post', async () => {
    const shop = await s.connectLocation('Crash Shop');
    s.google.business.delayNextCreate(30_000);
    const photo = `${s.h.stack.media.url}/cat.png`;
    const postId = await s.create(shop, {
      containers: [{ content: 'Answer lost', media: [{ url: photo, filename: 'cat.png' }] }, { content: 'a later container' }],
      google_business: { callToAction: { actionType: 'ORDER', url: 'https://shop.example/order' } },
    });
    const made = () => s.google.business.posts().some((p) => p.parent === shop.parent);
    await crashWhen(made, 'Google to have the post');

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 90_000);
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    const posts = s.google.business.posts().filter((p) => p.parent === shop.parent);
    assert.equal(posts.length, 1, 'created once');
    assert.deepEqual([destination.platformPostId, destination.platformPostUrl], [posts[0]!.name, posts[0]!.post.searchUrl]);
    assert.equal(destination.error, 'Google Business Profile posts take no replies: container 2 was not published');
    const creates = s.google.business.calls().filter((c) => c.method === 'POST' && c.path === `/v4/${shop.parent}/localPosts`);
    assert.equal(creates.length, 1, 'no second create');
    assert.ok(s.google.business.calls().some((c) => c.method === 'GET' && c.path === `/v4/${shop.parent}/localPosts`), 'reconciled from the location\'s posts');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed while Google reviews the post: the next worker reads it again from the checkpoint; never created twice', async () => {
    const shop = await s.connectLocation('Review Crash Shop');
    s.google.business.reviewNext({ reads: 2, verdict: 'LIVE' });
    const postId = await s.create(shop, { content: 'Under review' });
    await crashWhen(async () => typeof (await checkpointOf(postId))?.post === 'string', 'the post to be under review');
    const checkpoint = await checkpointOf(postId);

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const posts = s.google.business.posts().filter((p) => p.parent === shop.parent);
    assert.equal(posts.length, 1, 'created once');
    assert.equal(checkpoint.post, posts[0]!.name);
    assert.equal(posts[0]!.post.state, 'LIVE');
    assert.equal(post.socialAccounts[0].platformPostId, posts[0]!.name);
    const reads = s.google.business.calls().filter((c) => c.method === 'GET' && c.path === `/v4/${posts[0]!.name}`);
    assert.ok(reads.length >= 3, `read until LIVE (${reads.length} reads)`);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
