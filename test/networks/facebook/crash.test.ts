// Facebook Page videos with real `crier worker` processes killed with SIGKILL: during Meta's
// processing, and in the step that finishes the upload. Another worker resumes from the stored
// checkpoint: the same upload session, each range received once, one finish, one post.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { FACEBOOK_SCOPES } from '../../../src/networks/facebook/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let fb: FacebookEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
let account: TestAccount;
let pageId: string;
const workers = workerProcesses(() => h.stack.env);

before(async () => {
  fb = await startFacebookEmulator();
  fb.addApp(APP);
  const user = fb.addUser({ pages: [{ name: 'Acme', username: 'acme' }] });
  pageId = user.pageIds[0]!;
  const token = fb.issuePageToken(pageId, APP.clientId, FACEBOOK_SCOPES);
  h = await startMediaPublishing({ CRIER_FACEBOOK_BASE_URL: fb.url }, { worker: false });
  org = await h.server.createOrg();
  account = await h.server.addAccount(org, 'facebook', 'acme', { networkUniqueId: pageId, accessToken: token });
});
after(async () => {
  workers.killAll();
  await h.close();
  await fb.close();
});

const worker = () => workers.start();

async function videoPost(bytes: Buffer, filename: string): Promise<{ postId: string; rawId: number }> {
  const media = await h.upload(org, filename, bytes, 'video/mp4');
  const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: `video ${filename}`, media: [{ url: media.url, filename }] }] } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { postId: created.body.post.id, rawId: decodeId(created.body.post.id)! };
}

const checkpointOf = async (rawId: number) => (await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId])).rows[0]?.checkpoint;

describe('Facebook Page videos with real worker processes', { concurrency: false }, () => {
  test('killed while Meta processes the video: another worker resumes polling; one session, each range once, one finish, one post', async () => {
    fb.pages.setVideoProcessingMs(6000);
    const bytes = await paddedVideo(3 * MB);
    const { postId, rawId } = await videoPost(bytes, 'resume.mp4');
    const doomed = await worker();
    await until(async () => ((await checkpointOf(rawId))?.video?.finished ? true : undefined), 30_000, 'the upload to be finished');
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const video = fb.pages.videos().find((v) => v.declaredSize === 3 * MB)!;
    assert.equal(video.postId, undefined, 'not yet published when the worker died');

    const healthy = await worker();
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(post.socialAccounts[0].platformPostId, video.id);
    assert.equal(sha256(Buffer.concat(video.chunks)), sha256(bytes));
    assert.deepEqual(video.transfers, [0, MB, 2 * MB], 'each range received once, in order');
    const phases = fb.pages.calls().filter((c) => c.path === `/${pageId}/videos`).map((c) => c.params.upload_phase);
    assert.deepEqual(phases, ['start', 'transfer', 'transfer', 'transfer', 'finish'], 'one session, finished once');
    assert.equal(fb.pages.posts().filter((p) => p.id === video.id).length, 1);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed in the finishing step, before or after the finish call: the next worker asks the video\'s status first and finishes once', async () => {
    fb.pages.setVideoProcessingMs(500);
    const bytes = await paddedVideo(2 * MB);
    const { postId, rawId } = await videoPost(bytes, 'finish.mp4');
    const doomed = await worker();
    await until(async () => ((await checkpointOf(rawId))?.video?.finishing ? true : undefined), 30_000, 'the finishing step to be stored');
    // The finish call shares its path with start and transfer, so no fault can single it out: the
    // worker dies somewhere in the step that makes it, and the next must neither finish twice nor lose it.
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const healthy = await worker();
    const post = await h.stack.waitForPost(org, postId, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const video = fb.pages.videos().find((v) => v.declaredSize === 2 * MB)!;
    assert.equal(post.socialAccounts[0].platformPostId, video.id);
    const sessionCalls = fb.pages.calls().filter((c) => c.params.upload_session_id === `${video.id}_s` || (c.params.upload_phase === 'start' && c.params.file_size === String(2 * MB)));
    assert.deepEqual(sessionCalls.map((c) => c.params.upload_phase), ['start', 'transfer', 'transfer', 'finish'], 'finished once');
    assert.equal(sha256(Buffer.concat(video.chunks)), sha256(bytes));
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
