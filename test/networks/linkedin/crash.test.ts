// LinkedIn video with real `crier worker` processes: a 200 MB video goes up range by range without the
// worker's memory growing with it, and a worker killed with SIGKILL during the upload or during
// LinkedIn's processing is taken over by another, which resumes from the stored checkpoint — the same
// upload session, no range sent again but the one in flight, one finalize, one post.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/linkedin/server.ts';
import { LINKEDIN_SCOPES } from '../../../src/networks/linkedin/oauth.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';

const APP = { clientId: 'crier-linkedin', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let li: LinkedInEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
let account: TestAccount;
const workers = workerProcesses(() => h.stack.env);

before(async () => {
  li = await startLinkedInEmulator();
  li.addApp(APP);
  const ada = li.addUser({ name: 'Ada Lovelace' });
  h = await startMediaPublishing({ CRIER_LINKEDIN_BASE_URL: li.url }, { worker: false });
  org = await h.server.createOrg();
  const token = li.oauth.issue(ada.sub, APP.clientId, LINKEDIN_SCOPES).accessToken;
  account = await h.server.addAccount(org, 'linkedin', 'ada', { networkUniqueId: `urn:li:person:${ada.sub}`, accessToken: token });
});
after(async () => {
  workers.killAll();
  await h.close();
  await li.close();
});

const worker = () => workers.start();


async function createVideoPost(bytes: Buffer, filename: string): Promise<{ postId: string; rawId: number }> {
  const media = await h.upload(org, filename, bytes, 'video/mp4');
  const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: `video ${filename}`, media: [{ url: media.url, filename }] }] } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { postId: created.body.post.id, rawId: decodeId(created.body.post.id)! };
}

/** Resident and peak memory of a process, in bytes (Linux /proc). */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}


describe('LinkedIn video with real worker processes', { concurrency: false }, () => {
  test('a 200 MB video is uploaded in 4 MiB ranges while the worker\'s memory stays flat', async () => {
    const healthy = await worker();
    // A small video first, so that what a first upload loads (code, connections) is in the baseline.
    const warmUp = await createVideoPost(await paddedVideo(5 * MB), 'warm-up.mp4');
    assert.equal((await h.stack.waitForPost(org, warmUp.postId, undefined, 60_000)).socialAccounts[0].status, 'published');
    const bytes = await paddedVideo(200 * MB);
    const { postId } = await createVideoPost(bytes, 'big.mp4');
    const pid = healthy.child.pid!;
    const before = await memoryOf(pid);
    let highest = before.rss;
    const sampler = setInterval(() => void memoryOf(pid).then((m) => { highest = Math.max(highest, m.rss); }, () => {}), 25);
    try {
      const post = await h.stack.waitForPost(org, postId, undefined, 180_000);
      assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    } finally {
      clearInterval(sampler);
    }
    const video = li.videos().find((v) => v.declaredSize === 200 * MB)!;
    assert.equal(video.sha256, sha256(bytes), 'LinkedIn received the 200 MB exactly');
    assert.equal(video.parts.length, 50);
    assert.ok(video.parts.every((p) => p.puts === 1));
    const growth = highest - before.rss;
    console.log(`worker RSS ${(before.rss / MB).toFixed(0)} MB before, highest ${(highest / MB).toFixed(0)} MB during the 200 MB upload: +${(growth / MB).toFixed(1)} MB`);
    // Holding the video whole would add at least its 200 MB. What a streamed upload adds is the
    // allocator's and the garbage collector's lag, which depends on the machine's load: 27, 42 and
    // 65 MB measured (the last under the full test suite on 2 cores). The bound is half the video.
    assert.ok(growth < 100 * MB, `the worker grew by ${(growth / MB).toFixed(1)} MB uploading 200 MB`);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed during the upload: another worker resumes the same upload session where the checkpoint left it', async () => {
    const bytes = await paddedVideo(24 * MB); // 6 ranges
    const { postId, rawId } = await createVideoPost(bytes, 'resume.mp4');
    // The third range's PUT gets no answer for a while: the worker dies with it in flight.
    li.failNext({ status: 500, method: 'PUT', path: /^\/dms-uploads\/video\/[^/]+\/2$/, delayMs: 20_000 });
    const doomed = await worker();
    await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      return rows[0]?.checkpoint?.media?.[0]?.video?.etags?.length === 2 ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const inits = () => li.calls().filter((c) => c.path === '/rest/videos' && c.query.action === 'initializeUpload').length;
    const initsBefore = inits();

    const healthy = await worker();
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(inits(), initsBefore, 'the same upload session was resumed, not a new one');
    const video = li.videos().find((v) => v.declaredSize === 24 * MB)!;
    assert.equal(video.sha256, sha256(bytes));
    assert.deepEqual(video.parts.map((p) => p.puts), [1, 1, 1, 1, 1, 1], 'each range was received once (the one in flight when the worker died never arrived)');
    assert.equal(li.calls().filter((c) => c.path === '/rest/videos' && c.query.action === 'finalizeUpload').length >= 1, true);
    assert.equal(li.posts().filter((p) => p.commentarySent === 'video resume.mp4').length, 1, 'posted once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed while LinkedIn processes the video: the next worker waits on, and posts it once', async () => {
    const bytes = await paddedVideo(5 * MB);
    const { postId, rawId } = await createVideoPost(bytes, 'processing.mp4');
    li.stickNextVideo();
    const doomed = await worker();
    const urn = await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      const media = rows[0]?.checkpoint?.media?.[0];
      return media?.video?.finalized ? (media.urn as string) : undefined;
    });
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const healthy = await worker();
    li.releaseVideo(urn);
    const post = await h.stack.waitForPost(org, postId, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const video = li.videos().find((v) => v.urn === urn)!;
    assert.ok(video.parts.every((p) => p.puts === 1), 'nothing was uploaded again');
    assert.equal(li.posts().filter((p) => p.commentarySent === 'video processing.mp4').length, 1, 'posted once');
    assert.equal((li.posts().find((p) => p.commentarySent === 'video processing.mp4')!.content as any).media.id, urn);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
