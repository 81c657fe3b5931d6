// Vimeo video with real `crier worker` processes killed with SIGKILL: during the tus upload (after
// Vimeo took a chunk whose answer never came back), while Vimeo transcodes, and between Vimeo creating
// the video and the checkpoint naming it. Each time another worker takes over, and the result is one
// video on Vimeo holding the file exactly, its bytes sent once but for at most the chunk in flight.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../../emulators/vimeo/server.ts';
import { VIMEO_SCOPES } from '../../../src/networks/vimeo/oauth.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-vimeo', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const MiB = 1024 * 1024;
/** The adapter's chunk: one PATCH per step. */
const CHUNK = 16 * MiB;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let vm: VimeoEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
let account: TestAccount;
const workers = workerProcesses(() => h.stack.env);

before(async () => {
  vm = await startVimeoEmulator();
  vm.addApp(APP);
  vm.setTranscodeReads(0);
  const ada = vm.addUser({ name: 'Ada Lovelace' });
  h = await startMediaPublishing({ CRIER_VIMEO_BASE_URL: vm.url }, { worker: false });
  org = await h.server.createOrg();
  const token = vm.oauth.issue(ada.id, APP.clientId, VIMEO_SCOPES).accessToken;
  account = await h.server.addAccount(org, 'vimeo', ada.username, { networkUniqueId: ada.id, accessToken: token });
});
after(async () => {
  workers.killAll();
  await h.close();
  await vm.close();
});

async function createVideoPost(bytes: Buffer, title: string): Promise<{ postId: string; rawId: number }> {
  const media = await h.upload(org, `${title}.mp4`, bytes, 'video/mp4');
  const created = await h.server.request('POST', '/v1/posts', {
    key: org.key, body: { accounts: [account.id], containers: [{ content: title, media: [{ url: media.url, filename: `${title}.mp4` }] }], vimeo: { title } },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { postId: created.body.post.id, rawId: decodeId(created.body.post.id)! };
}

const checkpointOf = async (rawId: number) => (await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId])).rows[0]?.checkpoint;
const creations = (title: string) => vm.requests().filter((r) => r.method === 'POST' && r.path === '/me/videos' && (r.json as any)?.name === title).length;

async function killed(worker: Awaited<ReturnType<typeof workers.start>>): Promise<void> {
  worker.child.kill('SIGKILL');
  await worker.exited;
}

async function publishedBy(worker: Awaited<ReturnType<typeof workers.start>>, postId: string) {
  try {
    const post = await h.stack.waitForPost(org, postId, undefined, 120_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    return post;
  } finally {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
}

describe('Vimeo video with real worker processes', { concurrency: false }, () => {
  test('killed after Vimeo took a chunk it never answered: the next worker resumes at the offset HEAD reports', async () => {
    const bytes = await paddedVideo(4 * CHUNK);
    const { postId, rawId } = await createVideoPost(bytes, 'resumed');
    // The second chunk is taken in whole, and its answer held back: the worker dies before storing it.
    vm.stallNext({ method: 'PATCH', path: '/tus/files/', uploadOffset: CHUNK, ms: 20_000 });
    const doomed = await workers.start();
    await until(() => (vm.patches().some((p) => p.uploadOffset === String(CHUNK) && p.received === CHUNK) ? true : undefined), 60_000);
    assert.equal((await checkpointOf(rawId)).offset, CHUNK, 'the checkpoint knows of one chunk only');
    await killed(doomed);

    const post = await publishedBy(await workers.start(), postId);
    const video = vm.videos().find((v) => v.id === post.socialAccounts[0].platformPostId)!;
    assert.equal(video.sha256, sha256(bytes), 'Vimeo holds the file exactly');
    assert.equal(creations('resumed'), 1, 'one video created');
    const patches = vm.patches().filter((p) => p.videoId === video.id);
    assert.deepEqual(patches.map((p) => [p.uploadOffset, p.received]), [0, 1, 2, 3].map((i) => [String(i * CHUNK), CHUNK]), 'each chunk sent once');
    const heads = vm.heads().filter((x) => x.videoId === video.id).map((x) => x.uploadOffset);
    assert.deepEqual(heads, [0, CHUNK, 2 * CHUNK, 3 * CHUNK], 'after the crash HEAD said 2 chunks, and the upload went on from there');
  });

  test('killed while Vimeo transcodes: the next worker publishes the same video once, sending nothing again', async () => {
    const bytes = await paddedVideo(2 * MiB);
    const { postId, rawId } = await createVideoPost(bytes, 'transcoding');
    vm.setTranscodeReads(1000);
    const doomed = await workers.start();
    const cp = await until(async () => {
      const stored = await checkpointOf(rawId);
      return stored?.phase === 'transcode' ? stored : undefined;
    }, 60_000);
    await killed(doomed);
    vm.setTranscodeReads(0);
    const videoId = String(cp.video).split('/').at(-1)!;
    const patchesBefore = vm.patches().length;
    vm.completeTranscode(videoId);

    const post = await publishedBy(await workers.start(), postId);
    assert.equal(post.socialAccounts[0].platformPostId, videoId);
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://vimeo.com/${videoId}`);
    assert.equal(creations('transcoding'), 1, 'one video created');
    assert.equal(vm.patches().length, patchesBefore, 'no byte sent again');
    assert.equal(vm.videos().find((v) => v.id === videoId)!.sha256, sha256(bytes));
  });

  test('killed between Vimeo creating the video and the checkpoint: the next worker finds that video and uploads into it', async () => {
    const bytes = await paddedVideo(3 * MiB);
    const { postId, rawId } = await createVideoPost(bytes, 'orphan');
    vm.stallNext({ method: 'POST', path: '/me/videos', ms: 20_000 });
    const doomed = await workers.start();
    await until(() => (vm.videos().some((v) => v.name === 'orphan') ? true : undefined), 60_000);
    assert.equal(await checkpointOf(rawId), null, 'the video is not on record');
    await killed(doomed);

    const post = await publishedBy(await workers.start(), postId);
    const orphans = vm.videos().filter((v) => v.name === 'orphan');
    assert.equal(orphans.length, 1, 'no second video');
    assert.equal(post.socialAccounts[0].platformPostId, orphans[0]!.id);
    assert.equal(orphans[0]!.sha256, sha256(bytes));
    assert.ok(vm.requests().some((r) => r.method === 'GET' && r.path === '/me/videos'), 'the member\'s videos were searched');
  });
});
